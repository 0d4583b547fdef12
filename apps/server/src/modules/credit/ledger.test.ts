import Decimal from 'decimal.js';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CreditView, FtRow, LineFigures } from '@portal/contract/credit';
import { queryRows, type Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { createTestPortal, onPostgres, type TestClient, type TestPortal } from '../../testing/harness';
import { canOccupy, linesOfCustomer, occupy, release, reoccupy, ONE_OFF_REASON } from './ledger';
import { creditLedger, creditLines } from './schema';
import { addChecker, addCustomer, approvedCredit, creditApi } from './testkit';
import { sqlStateOf } from '../../testing/sql-state';

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
const actor: Actor = { userId: 1, userName: 'contract-approver' };
const today = '2026-01-15';

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
});
afterAll(() => t.close());

const db = () => t.database.db;
const tx = <T>(fn: (x: Tx) => Promise<T>): Promise<T> => db().transaction(fn);

async function lines(credBizCode: string): Promise<{ platform: LineFigures; debtors: FtRow[] }> {
  const v = await maker.ok<CreditView>(creditApi.creditPlatform, undefined, {
    query: { bizCode: credBizCode },
  });
  const ft = await maker.ok<FtRow[]>(creditApi.creditFt, undefined, { query: { bizCode: credBizCode } });
  return { platform: v.line!, debtors: ft };
}

async function line(code: string) {
  const [row] = await db().select().from(creditLines).where(eq(creditLines.bizCode, code));
  return row!;
}

/** occupied = Σ occupy + Σ reoccupy − Σ release and reserved = Σ reserve − Σ unreserve, for every line. */
async function ledgerSumsBack(): Promise<void> {
  const rows = await queryRows<{
    code: string;
    occupied: string;
    reserved: string;
    occ_sum: string;
    res_sum: string;
  }>(
    db(),
    sql`select l.biz_code as code, l.occupied_amount as occupied, l.reserved_amount as reserved,
          coalesce(sum(case e.movement when 'occupy' then e.amount when 'reoccupy' then e.amount when 'release' then -e.amount else 0 end), 0) as occ_sum,
          coalesce(sum(case e.movement when 'reserve' then e.amount when 'unreserve' then -e.amount else 0 end), 0) as res_sum
        from credit_lines l left join credit_ledger e on e.line_id = l.id group by l.id`,
  );
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) {
    expect(new Decimal(r.occ_sum).eq(r.occupied), `line ${r.code} occupied`).toBe(true);
    expect(new Decimal(r.res_sum).eq(r.reserved), `line ${r.code} reserved`).toBe(true);
  }
}

const mv = (lineCode: string, amount: string, docCode = '000000000901') => ({
  lineCode,
  amount,
  docType: 'contract',
  docCode,
  date: today,
  actor,
});

describe('occupation ledger', () => {
  it('occupies a debtor line and its platform parent, refuses beyond either, and releases on a cyclical line', async () => {
    const cust = await addCustomer(db(), '循环客户');
    const code = await approvedCredit(maker, checker, cust, {
      over: { limitAmount: '1000.00' },
      debtors: [{ debtorName: '核心买方甲', limitAmount: '600.00' }],
    });
    const { platform, debtors } = await lines(code);
    const debtor = debtors[0]!.line!;
    expect(debtor).toMatchObject({
      kind: 'debtor',
      limitAmount: '600.00',
      parentLineCode: platform.lineCode,
    });

    const r = await tx((x) => occupy(x, mv(debtor.lineCode, '500.00')));
    expect(r).toMatchObject({
      moved: '500.00',
      line: { occupiedAmount: '500.00', availableAmount: '100.00' },
    });
    expect((await line(platform.lineCode)).occupiedAmount).toBe('500.00');

    // The sub-limit refuses with the line and its available amount.
    await expect(tx((x) => occupy(x, mv(debtor.lineCode, '100.01')))).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(new RegExp(`授信额度不足.*${debtor.lineCode}.*可用 100\\.00`)),
    });
    // The platform line refuses once its own available is spent.
    await tx((x) => occupy(x, mv(platform.lineCode, '450.00')));
    await expect(tx((x) => occupy(x, mv(debtor.lineCode, '100.00')))).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(new RegExp(`授信额度不足.*${platform.lineCode}.*可用 50\\.00`)),
    });
    expect(await canOccupy(db(), debtor.lineCode, '50.00', today)).toBeNull();
    expect(await canOccupy(db(), debtor.lineCode, '50.01', today)).toMatch(/授信额度不足/);

    // Repayment on a cyclical line restores the amount on both levels; a red reversal re-occupies it.
    const rel = await tx((x) => release(x, mv(debtor.lineCode, '200.00')));
    expect(rel).toMatchObject({ moved: '200.00', line: { occupiedAmount: '300.00' } });
    expect((await line(platform.lineCode)).occupiedAmount).toBe('750.00');
    const re = await tx((x) => reoccupy(x, mv(debtor.lineCode, '200.00')));
    expect(re.line.occupiedAmount).toBe('500.00');
    await expect(tx((x) => release(x, mv(debtor.lineCode, '500.01')))).rejects.toMatchObject({ status: 409 });
    // Bad amounts are bad input.
    for (const bad of ['0', '-1.00', '1.001', 'abc'])
      await expect(tx((x) => occupy(x, mv(debtor.lineCode, bad)))).rejects.toMatchObject({ status: 400 });
    // Nothing was written by the refusals: the ledger still sums back.
    await ledgerSumsBack();
  });

  it('never restores a one-off line on repayment, but does on a cancelled occupation', async () => {
    const cust = await addCustomer(db(), '一次性客户');
    const code = await approvedCredit(maker, checker, cust, {
      over: { limitAmount: '1000.00', cycle: 'oneOff' },
    });
    const { platform } = await lines(code);
    await tx((x) => occupy(x, mv(platform.lineCode, '400.00')));
    const rel = await tx((x) => release(x, mv(platform.lineCode, '400.00')));
    expect(rel).toMatchObject({
      moved: '0.00',
      line: { occupiedAmount: '400.00', availableAmount: '600.00' },
    });
    const re = await tx((x) => reoccupy(x, mv(platform.lineCode, '400.00')));
    expect(re.moved).toBe('0.00');
    const rows = await db()
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.lineId, (await line(platform.lineCode)).id));
    expect(rows.filter((r) => r.movement === 'release')).toEqual([
      expect.objectContaining({ amount: '0.00', reason: ONE_OFF_REASON }),
    ]);
    const cancel = await tx((x) => release(x, { ...mv(platform.lineCode, '100.00'), kind: 'cancel' }));
    expect(cancel).toMatchObject({ moved: '100.00', line: { occupiedAmount: '300.00' } });
    await ledgerSumsBack();
  });

  it('refuses to occupy a frozen, expired or not-yet-valid line', async () => {
    const cust = await addCustomer(db(), '有效期客户');
    const code = await approvedCredit(maker, checker, cust, {
      over: { limitAmount: '1000.00', startDate: '2026-01-10', endDate: '2026-03-31' },
    });
    const { platform } = await lines(code);
    await expect(
      tx((x) => occupy(x, { ...mv(platform.lineCode, '1.00'), date: '2026-04-01' })),
    ).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('额度不在有效期内'),
    });
    await expect(
      tx((x) => occupy(x, { ...mv(platform.lineCode, '1.00'), date: '2026-01-09' })),
    ).rejects.toMatchObject({ status: 409 });
    await db().update(creditLines).set({ frozen: true }).where(eq(creditLines.bizCode, platform.lineCode));
    await expect(tx((x) => occupy(x, mv(platform.lineCode, '1.00')))).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('额度已冻结'),
    });
    await db().update(creditLines).set({ frozen: false }).where(eq(creditLines.bizCode, platform.lineCode));
    await expect(tx((x) => occupy(x, mv('000000999999', '1.00')))).rejects.toMatchObject({ status: 404 });
    expect((await linesOfCustomer(db(), cust)).map((l) => l.kind)).toEqual(['platform']);
  });

  it('writes the same movement row on either path, the guarded update and its row in one statement', async () => {
    // A movement row is written by the guarded update's statement (occupy, release, reoccupy,
    // reserve) or on its own (create, limit change, a 0.00 row): one column list serves both
    // (docs/credit.md "Movements"). Count the statements inside the transaction.
    const statements = (fn: (x: Tx) => Promise<unknown>) =>
      tx(async (x) => {
        const begin = vi.spyOn(t.database.inFlight, 'begin');
        try {
          await fn(x);
          return begin.mock.calls.length;
        } finally {
          begin.mockRestore();
        }
      });
    const rowsOf = async (lineCode: string) =>
      queryRows<Record<string, unknown>>(
        db(),
        sql`select e.movement, e.amount::text, e.limit_after::text, e.occupied_after::text,
                   e.reserved_after::text, e.doc_type, e.doc_code, e.reason, e.biz_date::text,
                   e.actor_id::int, e.actor_name, e.at is not null as stamped
              from credit_ledger e join credit_lines l on l.id = e.line_id
             where l.biz_code = ${lineCode} order by e.id`,
      );
    const row = (movement: string, amount: string, occupied: string, over: Record<string, unknown> = {}) => ({
      movement,
      amount,
      limit_after: '1000.00',
      occupied_after: occupied,
      reserved_after: '0.00',
      doc_type: 'contract',
      doc_code: '000000000902',
      reason: null,
      biz_date: today,
      actor_id: 1,
      actor_name: 'contract-approver',
      stamped: true,
      ...over,
    });
    const mv2 = (lineCode: string, amount: string) => ({
      ...mv(lineCode, amount, '000000000902'),
      reason: '测试',
    });

    const cyclical = await addCustomer(db(), '明细客户');
    const { platform } = await lines(
      await approvedCredit(maker, checker, cyclical, { over: { limitAmount: '1000.00' } }),
    );
    // The line locked (one statement), then its figures and its row (one statement).
    expect(await statements((x) => occupy(x, mv2(platform.lineCode, '300.00')))).toBe(2);
    expect(await statements((x) => release(x, mv2(platform.lineCode, '100.00')))).toBe(2);
    expect(await statements((x) => reoccupy(x, mv2(platform.lineCode, '100.00')))).toBe(2);
    // A refused update writes no row.
    await expect(tx((x) => reoccupy(x, mv2(platform.lineCode, '800.00')))).rejects.toMatchObject({
      status: 409,
    });
    const created = (await rowsOf(platform.lineCode))[0]!;
    expect(created).toMatchObject({
      movement: 'create',
      amount: '1000.00',
      limit_after: '1000.00',
      occupied_after: '0.00',
      reserved_after: '0.00',
      stamped: true,
    });
    expect((await rowsOf(platform.lineCode)).slice(1)).toEqual([
      row('occupy', '300.00', '300.00', { reason: '测试' }),
      row('release', '100.00', '200.00', { reason: '测试' }),
      row('reoccupy', '100.00', '300.00', { reason: '测试' }),
    ]);

    const oneOff = await addCustomer(db(), '一次性明细客户');
    const { platform: once } = await lines(
      await approvedCredit(maker, checker, oneOff, { over: { limitAmount: '1000.00', cycle: 'oneOff' } }),
    );
    await tx((x) => occupy(x, mv(once.lineCode, '300.00', '000000000902')));
    expect(await statements((x) => release(x, mv2(once.lineCode, '300.00')))).toBe(2);
    expect(await statements((x) => reoccupy(x, mv(once.lineCode, '300.00', '000000000902')))).toBe(2);
    expect((await rowsOf(once.lineCode)).slice(1)).toEqual([
      row('occupy', '300.00', '300.00', { reason: '占用' }),
      row('release', '0.00', '300.00', { reason: `测试；${ONE_OFF_REASON}` }),
      row('reoccupy', '0.00', '300.00', { reason: ONE_OFF_REASON }),
    ]);
    await ledgerSumsBack();
  });

  it('is bounded by the database itself: a direct update past the limit violates the CHECK', async () => {
    const cust = await addCustomer(db(), '约束客户');
    const code = await approvedCredit(maker, checker, cust, { over: { limitAmount: '100.00' } });
    const { platform } = await lines(code);
    const set = (amount: string) =>
      sqlStateOf(
        db().execute(
          sql`update credit_lines set occupied_amount = ${amount} where biz_code = ${platform.lineCode}`,
        ),
      );
    expect(await set('100.01')).toBe('23514');
    expect(await set('-1')).toBe('23514');
  });
});

describe.skipIf(!onPostgres)('concurrent occupation on PostgreSQL', () => {
  it('50 concurrent occupations against one line never exceed its limit, and the ledger sums back exactly', async () => {
    const cust = await addCustomer(db(), '并发客户');
    const code = await approvedCredit(maker, checker, cust, {
      over: { limitAmount: '1000.00' },
      debtors: [{ debtorName: '并发买方', limitAmount: '1000.00' }],
    });
    const { platform, debtors } = await lines(code);
    const debtor = debtors[0]!.line!;
    // 50 contracts of 30.00 on the debtor line and 20 of 25.00 straight on the platform line.
    const results = await Promise.allSettled([
      ...Array.from({ length: 50 }, (_, i) =>
        tx((x) => occupy(x, mv(debtor.lineCode, '30.00', String(100000 + i).padStart(12, '0')))),
      ),
      ...Array.from({ length: 20 }, (_, i) =>
        tx((x) => occupy(x, mv(platform.lineCode, '25.00', String(200000 + i).padStart(12, '0')))),
      ),
    ]);
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 409 });
    expect(ok).toBeGreaterThan(0);
    const p = await line(platform.lineCode);
    const d = await line(debtor.lineCode);
    expect(new Decimal(p.occupiedAmount).lte(p.limitAmount)).toBe(true);
    expect(new Decimal(d.occupiedAmount).lte(d.limitAmount)).toBe(true);
    // Every refusal came only when there was no room for it: what is left is less than the smallest ask.
    expect(new Decimal(p.limitAmount).minus(p.occupiedAmount).lt('25.00')).toBe(true);
    const occupiedRows = await db().select().from(creditLedger).where(eq(creditLedger.lineId, p.id));
    expect(occupiedRows.filter((r) => r.movement === 'occupy')).toHaveLength(ok);
    await ledgerSumsBack();

    // Releases and re-occupations racing each other keep the same invariant.
    await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        tx((x) =>
          i % 2 ? release(x, mv(debtor.lineCode, '30.00')) : reoccupy(x, mv(debtor.lineCode, '30.00')),
        ),
      ),
    );
    const p2 = await line(platform.lineCode);
    expect(new Decimal(p2.occupiedAmount).lte(p2.limitAmount)).toBe(true);
    await ledgerSumsBack();
  });

  it('distribution approvals racing occupations never over-commit the parent line', async () => {
    const group = await addCustomer(db(), '并发集团');
    const members = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => addCustomer(db(), `并发成员${i}`, { parent: group })),
    );
    const code = await approvedCredit(maker, checker, group, { over: { limitAmount: '1000.00' } });
    const { platform } = await lines(code);
    // Five distributions of 300.00: each fits alone at save time; together they cannot.
    const dists: string[] = [];
    for (const m of members) {
      const d = await maker.ok<{ bizCode: string }>(creditApi.saveCredDistribution, {
        credBizCode: code,
        items: [{ targetType: 'member', custCode: m, amount: '300.00' }],
        submit: true,
      });
      dists.push(d.bizCode);
    }
    const results = await Promise.all([
      ...dists.map((d) =>
        checker.call(creditApi.passCredDistribution, { comment: '同意' }, { query: { bizCode: d } }),
      ),
      ...Array.from({ length: 10 }, (_, i) =>
        tx((x) => occupy(x, mv(platform.lineCode, '50.00', String(300000 + i).padStart(12, '0')))).then(
          () => ({ status: 200 }),
          (err: { status?: number }) => ({ status: err.status ?? 500 }),
        ),
      ),
    ]);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const approvedDists = results.slice(0, 5).filter((r) => r.status === 200).length;
    const occupations = results.slice(5).filter((r) => r.status === 200).length;
    const p = await line(platform.lineCode);
    expect(new Decimal(p.reservedAmount).eq(approvedDists * 300)).toBe(true);
    expect(new Decimal(p.occupiedAmount).eq(occupations * 50)).toBe(true);
    expect(new Decimal(p.occupiedAmount).plus(p.reservedAmount).lte(p.limitAmount)).toBe(true);
    const children = await db().select().from(creditLines).where(eq(creditLines.parentLineId, p.id));
    expect(children).toHaveLength(approvedDists);
    await ledgerSumsBack();
  });
});
