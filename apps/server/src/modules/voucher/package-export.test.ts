import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountRow, TrialBalance, VoucherDocType } from '@portal/contract/voucher';
import {
  PACKAGE_PATHS,
  type AccountingPackage,
  type PackageAccountRow,
} from '@portal/contract/voucher-package';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { queryRows } from '../../platform/db/client';
import {
  createTestPortal,
  createUserWithCodes,
  servedPaths,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import type { MoneyEvent } from './journal';
import { postEvent, reverseDocument } from './service';
import { clearVouchers, moneyHistory, postRed, voucherApi } from './testkit';

/**
 * 凭证引入 (docs/accounting.md "Export to the accounting package"): over random histories of money
 * events, red reversals and a change of the mapping half way, each month's import file of either
 * package sums, per package account, to that month's movement on the trial balance, exactly; the
 * layouts are the packages'; the package codes are saved with the 科目映射's version and audit.
 */
const api = servedPaths(PACKAGE_PATHS);

const history = moneyHistory({ days: 120, contracts: 2, maxLength: 12, maxLag: 40 });

const DOC_OF = {
  disbursement: 'loan',
  prepayment: 'prepayment',
  income: 'income',
  writeOff: 'paid',
} as const;

let t: TestPortal;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: '2026-07-31' });
  admin = await t.login();
}, 180_000);
afterAll(() => t.close());

async function sheetOf(pkg: AccountingPackage, period: string, bookCode?: string) {
  const res = await admin.call(api.export, { period, package: pkg, bookCode });
  expect(res.httpStatus).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(res.raw) as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  ws.eachRow({ includeEmpty: true }, (r) => rows.push((r.values as unknown[]).slice(1)));
  return { rows, headers: String(res.headers['content-disposition']) };
}

/**
 * Per account `debit/credit`, accounts that moved nothing left out: the trial balance lists those
 * with only an opening balance, the file an account whose lines and their red mirrors net to 0.
 */
const moved = (m: Map<string, { debit: Decimal; credit: Decimal }>) =>
  new Map(
    [...m]
      .filter(([, v]) => !v.debit.isZero() || !v.credit.isZero())
      .map(([k, v]) => [k, `${v.debit.toFixed(2)}/${v.credit.toFixed(2)}`]),
  );

/** Σ debit and Σ credit of a file per package account code, as exact decimals. */
function sums(rows: unknown[][], head: number, code: number, debit: number, credit: number) {
  const out = new Map<string, { debit: Decimal; credit: Decimal }>();
  for (const r of rows.slice(head)) {
    const k = String(r[code]);
    const s = out.get(k) ?? { debit: new Decimal(0), credit: new Decimal(0) };
    s.debit = s.debit.plus(String(r[debit] ?? 0));
    s.credit = s.credit.plus(String(r[credit] ?? 0));
    out.set(k, s);
  }
  return moved(out);
}

/** The trial balance's movement of a period per package account: its rows gathered by `pkgOf`. */
function trialSums(tb: TrialBalance, pkgOf: (code: string) => string) {
  const out = new Map<string, { debit: Decimal; credit: Decimal }>();
  for (const r of tb.rows) {
    const k = pkgOf(r.accountCode);
    const s = out.get(k) ?? { debit: new Decimal(0), credit: new Decimal(0) };
    s.debit = s.debit.plus(r.debit);
    s.credit = s.credit.plus(r.credit);
    out.set(k, s);
  }
  return moved(out);
}

const accounts = () => admin.ok<PackageAccountRow[]>(api.accounts);
async function setPackage(role: string, yonyouCode: string | null, kingdeeCode: string | null, aux: boolean) {
  const a = (await accounts()).find((r) => r.role === role)!;
  return admin.ok<PackageAccountRow>(api.accountSave, {
    role,
    yonyouCode,
    kingdeeCode,
    aux,
    version: a.version,
  });
}
async function setOurs(role: string, code: string, name: string) {
  const a = (await admin.ok<AccountRow[]>(voucherApi.accountList)).find((r) => r.role === role)!;
  await admin.ok(voucherApi.accountSave, { role, code, name, version: a.version });
}

describe('the import files reproduce the trial balance', () => {
  it('per package account, every month, for both packages, across a mapping change', async () => {
    const db = t.database.db;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(history, fc.nat(), async (steps, cut) => {
        run++;
        await clearVouchers(db);
        await db.execute(
          sql`update voucher_accounts set code = '1002', name = '银行存款', yonyou_code = null, kingdee_code = null, package_aux = null where role = 'bank'`,
        );
        await setPackage('factoring', '113501', '1135.01', true);
        const posted: { code: string; date: string; docType: VoucherDocType }[] = [];
        const change = cut % (steps.length + 1);
        let n = 0;
        for (const [e, redOf, lag] of steps) {
          // Half way the office moves 银行存款 to a sub-account with its own package codes: the
          // lines posted before keep 1002, which no role names any more, and export as 1002.
          if (n === change) {
            await setOurs('bank', '100201', '银行存款-工行');
            await setPackage('bank', '10020101', '1002.01', false);
          }
          n++;
          const code = `${run}-${n}`;
          const ev = { ...e, docCode: code } as MoneyEvent;
          await db.transaction((tx) => postEvent(tx, ev, SYSTEM_ACTOR));
          const docType = DOC_OF[e.kind];
          posted.push({ code, date: ev.date, docType });
          if (redOf !== null) {
            const target = posted[redOf % posted.length]!;
            await postRed(
              db,
              { docType: target.docType, docCode: target.code, date: target.date },
              code,
              lag,
            );
          }
        }
        const bankMoved = change < steps.length;
        const yonyou: Record<string, string> = {
          '1135': '113501',
          ...(bankMoved ? { '100201': '10020101' } : {}),
        };
        const kingdee: Record<string, string> = {
          '1135': '1135.01',
          ...(bankMoved ? { '100201': '1002.01' } : {}),
        };
        const periods = await queryRows<{ p: string }>(
          db,
          sql`select distinct period as p from vouchers order by 1`,
        );
        for (const { p } of periods) {
          const tb = await admin.ok<TrialBalance>(voucherApi.trial, { period: p });
          const y = await sheetOf('yonyou', p);
          expect(sums(y.rows, 1, 5, 6, 7)).toEqual(trialSums(tb, (c) => yonyou[c] ?? c));
          const k = await sheetOf('kingdee', p, 'ZB001');
          expect(sums(k.rows, 2, 7, 13, 14)).toEqual(trialSums(tb, (c) => kingdee[c] ?? c));
          const lines = await queryRows<{ n: number }>(
            db,
            sql`select count(*)::int as n from voucher_lines l join vouchers v on v.id = l.voucher_id where v.period = ${p}`,
          );
          expect([y.rows.length - 1, k.rows.length - 2]).toEqual([lines[0]!.n, lines[0]!.n]);
        }
      }),
      { numRuns: 4 },
    );
  }, 300_000);
});

describe('the layouts', () => {
  it('writes U8 / T+ rows with the voucher head on each and K/3 Cloud rows with it on the first', async () => {
    const db = t.database.db;
    await clearVouchers(db);
    await setOurs('bank', '1002', '银行存款');
    await setPackage('bank', null, null, false);
    await setPackage('factoring', '113501', '1135.01', true);
    const a = { custCode: '000000000001', custName: '甲供应商', contractNo: 'HT-9' };
    await db.transaction(async (tx) => {
      await postEvent(
        tx,
        {
          kind: 'disbursement',
          docCode: 'L1',
          date: '2026-03-02',
          financing: '1000.00',
          net: '900.00',
          deducted: { margin: '100.00', upfrontInterest: '0.00', upfrontFee: '0.00' },
          aux: a,
        },
        SYSTEM_ACTOR,
      );
      await reverseDocument(
        tx,
        { docType: 'loan', docCode: 'L1' },
        { docType: 'loanRed', docCode: 'L1R', date: '2026-03-05', summary: '冲红放款' },
        SYSTEM_ACTOR,
      );
    });

    const y = await sheetOf('yonyou', '2026-03');
    expect(decodeURIComponent(y.headers)).toContain('凭证引入_用友U8T+_2026-03.xlsx');
    expect(y.rows[0]!.slice(0, 8)).toEqual([
      '制单日期',
      '凭证类别字',
      '凭证号',
      '附单据数',
      '摘要',
      '科目编码',
      '借方金额',
      '贷方金额',
    ]);
    const col = (h: string) => (y.rows[0] as string[]).indexOf(h);
    const y1 = y.rows[1]!;
    expect([y1[0], y1[1], y1[2], y1[5], y1[6], y1[col('客户编码')], y1[col('项目编码')]]).toEqual([
      '2026-03-02',
      '记',
      1,
      '113501',
      1000,
      '000000000001',
      'HT-9',
    ]);
    // 银行存款 carries no auxiliary; the red mirror (记-0002) has negative amounts.
    const bank = y.rows.find((r) => r[5] === '1002' && r[2] === 2)!;
    expect([bank[6], bank[7], bank[col('客户编码')]]).toEqual([undefined, -900, undefined]);

    expect((await admin.call(api.export, { period: '2026-03', package: 'kingdee' })).msg).toBe(
      '请输入账簿编码（金蝶凭证引入须指定账簿）',
    );
    const k = await sheetOf('kingdee', '2026-03', 'ZB001');
    expect(k.rows[0]!.slice(0, 3)).toEqual(['FBillHead(GL_VOUCHER)', 'FAccountBookID', 'FDate']);
    expect(k.rows[1]!.slice(0, 3)).toEqual(['*单据头(序号)', '*账簿(编码)', '*日期']);
    // Voucher 1: its head on its first line; its other lines continue it.
    expect(k.rows[2]!.slice(0, 9)).toEqual([
      1,
      'ZB001',
      '2026-03-02',
      'PRE001',
      1,
      1,
      '放款 甲供应商 HT-9',
      '1135.01',
      '000000000001',
    ]);
    expect(k.rows[3]!.slice(0, 6)).toEqual([undefined, undefined, undefined, undefined, undefined, 2]);
    expect(k.rows[5]!.slice(0, 6)).toEqual([2, 'ZB001', '2026-03-05', 'PRE001', 2, 1]);
    expect(k.rows[5]![12]).toBe(-1000);
  });

  it('keeps the package codes with the mapping: validated, versioned, audited, behind its codes', async () => {
    const a = (await accounts()).find((r) => r.role === 'margin')!;
    expect(a).toMatchObject({ code: '2241', yonyouCode: null, kingdeeCode: null, aux: true });
    const bad = await admin.call(api.accountSave, {
      role: 'margin',
      yonyouCode: '22-41',
      kingdeeCode: '2241/01',
      aux: true,
      version: a.version,
    });
    expect(bad.status).toBe(400);
    expect(String(bad.msg)).toMatch(/用友科目编码应为4至15位数字|金蝶科目编码应为4位数字/);
    const saved = await setPackage('margin', '224101', '2241.01', true);
    expect(saved).toMatchObject({ yonyouCode: '224101', kingdeeCode: '2241.01', version: a.version + 1 });
    const stale = await admin.call(api.accountSave, {
      role: 'margin',
      yonyouCode: null,
      kingdeeCode: null,
      aux: true,
      version: a.version,
    });
    expect(stale.status).toBe(409);
    const audit = await queryRows<{ detail: unknown }>(
      t.database.db,
      sql`select detail from audit_log where entity = 'voucherAccount' and action = 'savePackage' and entity_code = 'margin'`,
    );
    expect(audit.at(-1)!.detail).toEqual({
      before: { yonyouCode: null, kingdeeCode: null, aux: true },
      after: { yonyouCode: '224101', kingdeeCode: '2241.01', aux: true },
    });

    await createUserWithCodes(t.database.db, 'pkgview', 'Pkgview@123456', [
      'ft-voucher',
      'ft-voucher-account',
    ]);
    const u = await t.login('pkgview', 'Pkgview@123456');
    expect((await u.call(api.accounts)).status).toBe(200);
    expect((await u.call(api.export, { period: '2026-03', package: 'yonyou' })).status).toBe(401);
    expect(
      (
        await u.call(api.accountSave, {
          role: 'margin',
          yonyouCode: null,
          kingdeeCode: null,
          aux: true,
          version: 9,
        })
      ).status,
    ).toBe(401);
  });
});
