import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import type { AssetClass } from '@portal/contract/classification';
import { DEFAULT_PROVISION_RATES, type ProvisionRateKey } from '@portal/contract/sysparams';
import { queryRows, type Executor, type Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { classAsOf } from '../classification';
import { principalOpenAsOf } from '../ledger';
import { storedParams } from '../system';
import type { Aux } from './journal';
import { isClosed, postEvent } from './service';

/** The 参数设置 key of each class's rate. */
const RATE_KEY: Record<AssetClass, ProvisionRateKey> = {
  normal: 'provisionRateNormal',
  watch: 'provisionRateWatch',
  substandard: 'provisionRateSubstandard',
  doubtful: 'provisionRateDoubtful',
  loss: 'provisionRateLoss',
};

export type ProvisionRates = Record<AssetClass, Decimal>;

/**
 * The rates of 参数设置 as stored now, read in the caller's transaction (a save commits whole, so
 * one run never mixes two settings); a missing or malformed value is the default.
 */
export async function provisionRates(ex: Executor): Promise<ProvisionRates> {
  const stored = await storedParams(ex, 'provisionRate');
  const rate = (k: ProvisionRateKey) => {
    const v = stored.get(k);
    return new Decimal(
      typeof v === 'string' && /^\d{1,3}(\.\d{1,2})?$/.test(v) ? v : DEFAULT_PROVISION_RATES[k],
    );
  };
  return Object.fromEntries(
    (Object.keys(RATE_KEY) as AssetClass[]).map((c) => [c, rate(RATE_KEY[c])]),
  ) as ProvisionRates;
}

/** A contract's line of the provisioning run. */
export interface ProvisionLine {
  contractNo: string;
  assetClass: AssetClass;
  /** 本金余额 on the run date. */
  principal: string;
  /** The rate in %. */
  rate: string;
  /** What it should hold: principal × rate, half-up to the cent. */
  target: string;
  /** What it held before the run (坏账准备 posted to it, dated by the run date). */
  held: string;
  /** target − held: the run's amount for it (negative releases). */
  change: string;
  aux: Aux;
}

/**
 * The provisioning of month end E (docs/accounting.md "Provisioning"), per contract: the contracts
 * disbursed by E with 本金余额 left on E (the ledger's figure), each at the rate of its class in
 * force on E (the latest day-end's record on or before E; 正常 when none classified it yet), and
 * every contract still holding 坏账准备 with nothing left to hold it for (its target 0.00).
 */
export async function provisionDue(tx: Executor, e: string, rates: ProvisionRates): Promise<ProvisionLine[]> {
  const rows = await queryRows<{
    contract_no: string;
    cust_code: string;
    cust_name: string;
    asset_class: AssetClass | null;
    p_open: string | null;
    held: string | null;
  }>(
    tx,
    sql`with owed as (
          select po.contract_id, po.p_open from ${principalOpenAsOf(e)} as po where po.p_open > 0),
        held as (
          select l.contract_no, sum(l.credit - l.debit) as held
            from voucher_lines l join vouchers v on v.id = l.voucher_id
           where l.role = 'badDebtReserve' and l.contract_no is not null and v.voucher_date <= ${e}::date
           group by l.contract_no)
        select c.contract_no, c.cust_code, c.cust_name, cl.asset_class, o.p_open::text as p_open,
               h.held::text as held
          from contracts c
          left join owed o on o.contract_id = c.id
          left join held h on h.contract_no = c.contract_no
          left join ${classAsOf(sql`c.id`, e)} as cl on true
         where c.deleted_at is null and (o.contract_id is not null or coalesce(h.held, 0) <> 0)
         order by c.id`,
  );
  return rows.map((r) => {
    const cls: AssetClass = r.asset_class ?? 'normal';
    const principal = new Decimal(r.p_open ?? 0);
    const rate = rates[cls];
    const target = principal.times(rate).div(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    const held = new Decimal(r.held ?? 0);
    return {
      contractNo: r.contract_no,
      assetClass: cls,
      principal: principal.toFixed(2),
      rate: rate.toFixed(2),
      target: target.toFixed(2),
      held: held.toFixed(2),
      change: target.minus(held).toFixed(2),
      aux: { custCode: r.cust_code, custName: r.cust_name, contractNo: r.contract_no },
    };
  });
}

/**
 * 坏账准备 a contract holds on `date`: Σ credit − debit of its 坏账准备 lines dated by it (what a
 * 核销坏账 uses first, docs/accounting.md "Bad-debt write-off").
 */
export async function reserveHeld(
  ex: Executor,
  contractNo: string,
  date: string,
  postedBefore?: { docType: string; docCode: string },
): Promise<string> {
  // postedBefore: only the vouchers posted before that document's (what it found held).
  const before = postedBefore
    ? sql`and v.id < (select min(b.id) from vouchers b
                       where b.doc_type = ${postedBefore.docType} and b.doc_code = ${postedBefore.docCode})`
    : sql``;
  const [r] = await queryRows<{ held: string | null }>(
    ex,
    sql`select sum(l.credit - l.debit)::text as held
          from voucher_lines l join vouchers v on v.id = l.voucher_id
         where l.role = 'badDebtReserve' and l.contract_no = ${contractNo} and v.voucher_date <= ${date}::date ${before}`,
  );
  return new Decimal(r?.held ?? 0).toFixed(2);
}

/**
 * The date of the latest provisioning voucher that moved the contract's 坏账准备, or null. A
 * 核销坏账 may not be dated before it: what it uses is what is held on its date, and a top-up dated
 * later would be left out and its shortfall charged to 信用减值损失 a second time (docs/accounting.md
 * "Bad-debt write-off").
 */
export async function lastProvisionDate(ex: Executor, contractNo: string): Promise<string | null> {
  const [r] = await queryRows<{ d: string | null }>(
    ex,
    sql`select max(v.voucher_date)::text as d
          from voucher_lines l join vouchers v on v.id = l.voucher_id
         where l.role = 'badDebtReserve' and l.contract_no = ${contractNo} and v.doc_type = 'provision'`,
  );
  return r?.d ?? null;
}

/** Whether month end E's provisioning was posted (it is then done for that month). */
export async function provisioned(ex: Executor, period: string): Promise<boolean> {
  const [done] = await queryRows<{ id: number }>(
    ex,
    sql`select id from vouchers where doc_type = 'provision' and doc_code = ${period} and red_of is null limit 1`,
  );
  return done !== undefined;
}

/**
 * The month-end provisioning run of month end E: one voucher `provision` dated E, per contract
 * 信用减值损失 debit / 坏账准备 credit with the change in what it should hold (a negative amount, red,
 * releases). Run by the day-end of a month's last day after the 五级分类 of that day, and by the
 * close of a month that has none yet. Once per month: a month with its run posted, or closed, is
 * left as it is. Answers whether it posted.
 */
export async function provideMonthEnd(tx: Tx, e: string, actor: Actor): Promise<boolean> {
  const period = e.slice(0, 7);
  if ((await provisioned(tx, period)) || (await isClosed(tx, period))) return false;
  const lines = (await provisionDue(tx, e, await provisionRates(tx))).filter(
    (l) => !new Decimal(l.change).isZero(),
  );
  if (lines.length === 0) return false;
  await postEvent(
    tx,
    { kind: 'provision', period, date: e, contracts: lines.map((l) => ({ amount: l.change, aux: l.aux })) },
    actor,
  );
  return true;
}
