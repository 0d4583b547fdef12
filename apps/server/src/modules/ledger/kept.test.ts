import Decimal from 'decimal.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIZDATE_PATHS } from '@portal/contract/bizdate';
import { CLASS_PATHS, type ClassDistribution } from '@portal/contract/classification';
import { LEDGER_PATHS, type LedgerPage } from '@portal/contract/ledger';
import { menu } from '@portal/contract/menus';
import { queryRows } from '../../platform/db/client';
import {
  createDept,
  createTestPortal,
  createUserWithCodes,
  servedPaths,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import {
  approvedFor,
  BULLET_RULE,
  contractFixture,
  MONTHLY_RULE,
  openingImport,
  type ContractFixture,
} from '../contract/testkit';
import { disburse } from '../loan/testkit';
import { principalWriteOff, reverseWriteOff } from '../paid/testkit';

/**
 * The figures kept by date (docs/ledger.md "Kept by date") against the figures computed from the
 * postings: the 台账's totals and rows and the 五级分类 distribution of a past date, for a user who
 * sees everything, a user of one organisation and a call narrowed to an organisation, right after
 * the day-end kept them, after postings the day-end did not see (a back-dated write-off changing
 * a kept month end, a reversal, two write-offs at once), and after the next day-end folded those
 * in. The computed figures are the same calls in another order (contract number), which reads
 * every row. On PGlite, or PostgreSQL with TEST_DATABASE_URL.
 *
 * f1 (BULLET 7.20 %): A 100,000.00 01-15 → 04-15 never paid (overdue, penalty); B 200,000.00 03-01
 * → 08-28, 50,000.00 paid 04-10, 10,000.00 paid 05-10 and reversed 05-20; F 80,000.00 02-01 →
 * 05-02 paid in full; C approved, never disbursed. f3 (等额本金): O brought in by 期初导入, two
 * periods repaid before. A and F belong to another organisation (分部). The 分部 user (本组织及下级)
 * also made B, which stays in the head office: they see A and F by their organisation and B as
 * their own row. The 自己 user (own rows only) made O. So every grain of the kept sums is read: the
 * whole book's (admin), the organisations' (admin with 机构, the 分部 user), the owners' (the 分部
 * user's B, the 自己 user's O).
 */
const ledgerApi = servedPaths(LEDGER_PATHS);
const classApi = servedPaths(CLASS_PATHS);
const bizdateApi = servedPaths(BIZDATE_PATHS);
const PW = 'Kept-Test-1';

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let branchUser: TestClient;
let selfUser: TestClient;
let branchCode = '';
let headCode = '';
let f1: ContractFixture;
let f3: ContractFixture;
const code = { A: '', B: '', C: '', F: '', O: '' };

const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestPortal({ BUSINESS_DATE: '2026-05-20' });
  admin = await t.login();
  checker = await addChecker(t);
  f1 = await contractFixture(t, admin, checker, { rule: BULLET_RULE, limit: '5000000.00' });
  f3 = await contractFixture(t, admin, checker, { rule: MONTHLY_RULE });
  const make = (amount: string, from: string, to: string) =>
    approvedFor(t, admin, checker, f1, amount, from, to);
  code.A = await make('100000.00', '2026-01-15', '2026-04-15');
  code.B = await make('200000.00', '2026-03-01', '2026-08-28');
  code.C = await make('50000.00', '2026-05-01', '2026-07-30');
  code.F = await make('80000.00', '2026-02-01', '2026-05-02');
  for (const c of [code.A, code.B, code.F]) await disburse(admin, checker, c);
  await principalWriteOff(admin, checker, f1.bankBizCode, code.B, '2026-04-10', '50000.00');
  await principalWriteOff(admin, checker, f1.bankBizCode, code.F, '2026-05-02', '80000.00');
  const later = await principalWriteOff(admin, checker, f1.bankBizCode, code.B, '2026-05-10', '10000.00');
  await reverseWriteOff(admin, checker, later);
  code.O = await openingImport(admin, f3, 'QC-KEPT-1', '30000002');
  // A and F belong to a branch, whose user sees them alone (data scope 本组织及下级).
  const branch = await createDept(db(), '台账分部');
  branchCode = branch.bizCode;
  await db().execute(
    sql`update contracts set org_id = ${branch.id} where biz_code in (${code.A}, ${code.F})`,
  );
  const branchMaker = await createUserWithCodes(db(), 'kept-branch', PW, [menu('ft-ledger-portfolio')], {
    deptId: branch.id,
    dataScope: 'dept',
  });
  branchUser = await t.login('kept-branch', PW);
  const selfMaker = await createUserWithCodes(db(), 'kept-self', PW, [menu('ft-ledger-portfolio')], {
    dataScope: 'self',
  });
  selfUser = await t.login('kept-self', PW);
  await db().execute(sql`update contracts set created_by = ${branchMaker.userId} where biz_code = ${code.B}`);
  await db().execute(sql`update contracts set created_by = ${selfMaker.userId} where biz_code = ${code.O}`);
  const [head] = await queryRows<{ code: string }>(
    db(),
    sql`select d.biz_code as code from contracts c join depts d on d.id = c.org_id where c.biz_code = ${code.B}`,
  );
  headCode = head!.code;
}, 300_000);
afterAll(() => t.close());

const dayEnd = async (date: string) => {
  t.portal.clock.set(date);
  const run = await admin.ok<{ state: string; error: string | null }>(bizdateApi.runDayEnd, {});
  expect(run.state, run.error ?? '').toBe('done');
};

const keptDates = async () =>
  (
    await queryRows<{ d: string }>(
      db(),
      sql`select to_char(as_of, 'YYYY-MM-DD') as d from ledger_kept_dates order by as_of`,
    )
  ).map((r) => r.d);

const touches = async () =>
  (await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from ledger_touches`))[0]!.n;

/**
 * The ledger of `asOf` as kept (the default order, no filter) and as computed (another order), for
 * the default period (the month, kept) or from `dateFrom` (summed from the period's documents).
 */
async function ledgerBoth(who: TestClient, asOf: string, orgCode?: string, dateFrom?: string) {
  const q = {
    asOf,
    pageNum: 1,
    pageSize: 100,
    ...(orgCode ? { orgCode } : {}),
    ...(dateFrom ? { dateFrom } : {}),
  };
  const kept = await who.ok<LedgerPage>(ledgerApi.list, q);
  const computed = await who.ok<LedgerPage>(ledgerApi.list, { ...q, orderBy: 'contractNo', order: 'asc' });
  return { kept, computed };
}

/** The distribution the computed ledger's 履约中 rows make, per class (docs/classification.md). */
function distributionOf(page: LedgerPage) {
  const by = new Map<string, { n: number; p: Decimal }>();
  for (const r of page.list.filter((x) => x.ledgerState === 'active')) {
    const k = r.classification ?? 'none';
    const had = by.get(k) ?? { n: 0, p: new Decimal(0) };
    by.set(k, { n: had.n + 1, p: had.p.plus(r.principalOutstanding) });
  }
  return by;
}

/** Every kept figure of `asOf` equals the computed one, for each reader. */
async function keptEqualsComputed(asOf: string, today: string) {
  for (const [who, name, org] of [
    [admin, 'admin', undefined],
    [admin, 'admin, 分部 only', branchCode],
    [admin, 'admin, head office', headCode],
    [branchUser, '分部 user', undefined],
    [branchUser, '分部 user, 分部 only', branchCode],
    [branchUser, '分部 user, head office (their own B)', headCode],
    [selfUser, '自己 user', undefined],
  ] as const) {
    const year = await ledgerBoth(who, asOf, org, '2026-01-01');
    expect(year.kept.totals, `${name} totals on ${asOf} from 01-01`).toEqual(year.computed.totals);
    const { kept, computed } = await ledgerBoth(who, asOf, org);
    expect(kept.totals, `${name} totals on ${asOf}`).toEqual(computed.totals);
    expect(kept.total, `${name} rows on ${asOf}`).toBe(computed.total);
    const byCode = new Map(computed.list.map((r) => [r.contBizCode, r]));
    for (const r of kept.list)
      expect(r, `${name} ${r.contBizCode} on ${asOf}`).toEqual(byCode.get(r.contBizCode));
    expect(kept.list.map((r) => r.contBizCode).sort()).toEqual(
      computed.list.map((r) => r.contBizCode).sort(),
    );
    // The distribution takes no organisation; it is the reader's data scope.
    if (asOf === today || org) continue;
    const dist = await who.ok<ClassDistribution>(classApi.distribution, { asOf });
    const want = distributionOf(computed);
    for (const row of dist.rows)
      expect([row.contracts, row.principalOutstanding], `${name} ${row.assetClass} on ${asOf}`).toEqual([
        want.get(row.assetClass)?.n ?? 0,
        (want.get(row.assetClass)?.p ?? new Decimal(0)).toFixed(2),
      ]);
    expect(dist.totals.principalOutstanding).toBe(
      [...want.values()].reduce((s, v) => s.plus(v.p), new Decimal(0)).toFixed(2),
    );
  }
}

describe('the 台账 figures kept by date', () => {
  it('the day-end keeps its date and the month end before it, equal to the computed figures', async () => {
    expect(await keptDates()).toEqual([]);
    await dayEnd('2026-05-25');
    expect(await keptDates()).toEqual(['2026-04-30', '2026-05-25']);
    expect(await touches()).toBe(0);
    // The touches it took vacuumed once it committed (vacuumTouches), not left to autovacuum.
    const [vacuumed] = await queryRows<{ at: string | null }>(
      db(),
      sql`select coalesce(last_vacuum, last_autovacuum)::text as at from pg_stat_user_tables where relname = 'ledger_touches'`,
    );
    expect(vacuumed!.at).not.toBeNull();
    await keptEqualsComputed('2026-05-25', '2026-05-25');
    await keptEqualsComputed('2026-04-30', '2026-05-25');
    // The kept path did answer: the kept rows hold every contract the ledger lists.
    const [n] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from ledger_kept where as_of = '2026-05-25'`,
    );
    expect(n!.n).toBe(5);
    // The coarser sums add up to the per-owner ones (migration 0067).
    const grains = await queryRows<{ owner: string; org: string; book: string }>(
      db(),
      sql`select (select sum(principal_open)::text from ledger_kept_sums where as_of = '2026-05-25') as owner,
                 (select sum(principal_open)::text from ledger_kept_org_sums where as_of = '2026-05-25') as org,
                 (select sum(principal_open)::text from ledger_kept_book_sums where as_of = '2026-05-25') as book`,
    );
    expect(grains[0]!.org).toBe(grains[0]!.owner);
    expect(grains[0]!.book).toBe(grains[0]!.owner);
    // Each reader sees what its scope holds: the 分部 user A, F and their own B; the 自己 user O.
    const seen = async (who: TestClient) =>
      (await who.ok<LedgerPage>(ledgerApi.list, { pageNum: 1, pageSize: 100 })).list
        .map((r) => r.contBizCode)
        .sort();
    expect(await seen(branchUser)).toEqual([code.A, code.B, code.F].sort());
    expect(await seen(selfUser)).toEqual([code.O]);
  });

  // Five write-offs and a reversal through their approvals, two day-ends and six whole-book
  // comparisons: 27–30 s on a loaded CI lane, near the project's stall bar.
  it(
    'postings after the day-end (back-dated, reversed, two at once) read exactly, before and after the next day-end',
    { timeout: 300_000 },
    async () => {
      // A write-off dated back into April changes the kept month end 04-30; one of today is reversed.
      await principalWriteOff(admin, checker, f1.bankBizCode, code.A, '2026-04-20', '30000.00');
      const today = await principalWriteOff(admin, checker, f1.bankBizCode, code.B, '2026-05-25', '5000.00');
      await reverseWriteOff(admin, checker, today);
      // Two write-offs at once, on contracts of two organisations.
      await Promise.all([
        principalWriteOff(admin, checker, f1.bankBizCode, code.A, '2026-05-25', '1000.00'),
        principalWriteOff(admin, checker, f1.bankBizCode, code.B, '2026-05-25', '2000.00'),
      ]);
      expect(await touches()).toBeGreaterThan(0);
      await keptEqualsComputed('2026-05-25', '2026-05-25');
      await keptEqualsComputed('2026-04-30', '2026-05-25');
      // The back-dated write-off is in the kept month end's figures (the branch's A: 30,000.00 less).
      const april = await admin.ok<LedgerPage>(ledgerApi.list, {
        asOf: '2026-04-30',
        pageNum: 1,
        pageSize: 100,
      });
      expect(april.list.find((r) => r.contBizCode === code.A)?.principalOutstanding).toBe('70000.00');

      // The next day-end folds the touches into the kept month end and drops the day no longer kept.
      await dayEnd('2026-05-31');
      expect(await keptDates()).toEqual(['2026-04-30', '2026-05-31']);
      expect(await touches()).toBe(0);
      await keptEqualsComputed('2026-04-30', '2026-05-31');
      await keptEqualsComputed('2026-05-31', '2026-05-31');
      await dayEnd('2026-06-02');
      expect(await keptDates()).toEqual(['2026-04-30', '2026-05-31', '2026-06-02']);
      await keptEqualsComputed('2026-05-31', '2026-06-02');
      await keptEqualsComputed('2026-06-02', '2026-06-02');
    },
  );
});
