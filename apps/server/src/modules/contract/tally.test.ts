import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractListRow } from '@portal/contract/contract';
import type { Page } from '@portal/contract/api';
import { queryRows } from '../../platform/db/client';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { compactContractTally } from './tally';
import { disburse } from '../loan/testkit';
import {
  approvedContract,
  contractBody,
  contractFixture,
  draftContract,
  contractApi,
  submitContract,
  type ContractFixture,
} from './testkit';

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let f: ContractFixture;
const db = () => t.database.db;
const q = (bizCode: string) => ({ query: { bizCode } });

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  f = await contractFixture(t, maker, checker, { limit: '5000000.00' });
});
afterAll(() => t.close());

type Key = { owner: number | null; state: string; status: string; loanState: string; n: number };

/** Live contracts per tally key, counted from the contracts themselves and summed from the tally. */
async function counted(): Promise<{ actual: Key[]; tallied: Key[] }> {
  const order = sql`order by 1 nulls first, 2, 3, 4`;
  const actual = await queryRows<Key>(
    db(),
    sql`select created_by::int as owner, state, status, loan_state as "loanState", count(*)::int as n
          from contracts where deleted_at is null group by 1, 2, 3, 4 ${order}`,
  );
  const tallied = await queryRows<Key>(
    db(),
    sql`select created_by::int as owner, state, status, loan_state as "loanState", sum(n)::int as n
          from contract_tally group by 1, 2, 3, 4 having sum(n) <> 0 ${order}`,
  );
  return { actual, tallied };
}

/** The rollup without the owner (migrations/0018), and the same sums from the contracts. */
async function countedAll(): Promise<{ actual: Omit<Key, 'owner'>[]; tallied: Omit<Key, 'owner'>[] }> {
  const order = sql`order by 1, 2, 3`;
  const actual = await queryRows<Omit<Key, 'owner'>>(
    db(),
    sql`select state, status, loan_state as "loanState", count(*)::int as n
          from contracts where deleted_at is null group by 1, 2, 3 ${order}`,
  );
  const tallied = await queryRows<Omit<Key, 'owner'>>(
    db(),
    sql`select state, status, loan_state as "loanState", sum(n)::int as n
          from contract_tally_all group by 1, 2, 3 having sum(n) <> 0 ${order}`,
  );
  return { actual, tallied };
}

async function expectTallyAgrees(): Promise<void> {
  const { actual, tallied } = await counted();
  expect(actual.length).toBeGreaterThan(0);
  expect(tallied).toEqual(actual);
  const all = await countedAll();
  expect(all.tallied).toEqual(all.actual);
}

const FILTERS = [
  {},
  { state: 'draft' },
  { state: 'pending' },
  { state: 'rejected' },
  { state: 'approved' },
  { state: 'approved', status: 'effective' },
  { status: 'none' },
  { loanState: 'none' },
  { state: 'approved', status: 'effective', loanState: 'loaned' },
] as const;

/** Every tallied filter's list total equals the same list counted with the rows (a filter the tally cannot answer). */
async function expectTotalsExact(client: TestClient): Promise<void> {
  for (const filter of FILTERS) {
    const tallied = await client.ok<Page<ContractListRow>>(contractApi.list, {
      pageNum: 1,
      pageSize: 1,
      ...filter,
    });
    const counted = await client.ok<Page<ContractListRow>>(contractApi.list, {
      pageNum: 1,
      pageSize: 1,
      ...filter,
      startDateFrom: '2000-01-01',
    });
    expect({ filter, total: tallied.total }).toEqual({ filter, total: counted.total });
  }
}

describe('the contract list total from the tally (migrations/0016)', () => {
  it('follows saves, submits, approvals, rejections, loans and deletes, exactly', async () => {
    const drafts = [];
    for (let i = 0; i < 3; i++) {
      const body = contractBody(f);
      drafts.push({ body, saved: await draftContract(maker, body) });
    }
    await expectTallyAgrees();
    const [a, b, c] = drafts;
    const submitted = await submitContract(maker, a!.body, a!.saved);
    await expectTallyAgrees();
    await checker.ok(contractApi.infoAudit, { comment: '同意' }, q(submitted.bizCode));
    await submitContract(maker, b!.body, b!.saved);
    await checker.ok(contractApi.infoUnAudit, { comment: '补充资料' }, q(b!.saved.bizCode));
    await maker.ok(contractApi.infoDelete, undefined, q(c!.saved.bizCode));
    await expectTallyAgrees();
    const loaned = await approvedContract(t, maker, checker, { fixture: f });
    await disburse(maker, checker, loaned.bizCode);
    await expectTallyAgrees();
    await expectTotalsExact(maker);
    expect(
      (await maker.ok<Page<ContractListRow>>(contractApi.list, { pageNum: 1, pageSize: 1, state: 'draft' }))
        .total,
    ).toBe((await counted()).actual.filter((k) => k.state === 'draft').reduce((s, k) => s + k.n, 0));
  });

  it('follows the data scope: an owner moved by any statement moves its count', async () => {
    const { userId, roleId } = await createUserWithCodes(db(), 'tally-own', 'Own@1234567890', [
      'ft-contract-info',
    ]);
    await db().execute(sql`update roles set data_scope = 'self' where id = ${roleId}`);
    const own = await t.login('tally-own', 'Own@1234567890');
    expect((await own.ok<Page<ContractListRow>>(contractApi.list, { pageNum: 1, pageSize: 1 })).total).toBe(
      0,
    );
    const { bizCode } = await approvedContract(t, maker, checker, { fixture: f });
    await db().execute(sql`update contracts set created_by = ${userId} where biz_code = ${bizCode}`);
    await expectTallyAgrees();
    const mine = await own.ok<Page<ContractListRow>>(contractApi.list, {
      pageNum: 1,
      pageSize: 5,
      state: 'approved',
    });
    expect({ total: mine.total, codes: mine.list.map((r) => r.bizCode) }).toEqual({
      total: 1,
      codes: [bizCode],
    });
    await expectTotalsExact(own);
    // The same shape of call by another user of the same scope binds that user's id, not the first's.
    const other = await createUserWithCodes(db(), 'tally-other', 'Own@1234567890', ['ft-contract-info']);
    await db().execute(sql`update roles set data_scope = 'self' where id = ${other.roleId}`);
    const theirs = await (
      await t.login('tally-other', 'Own@1234567890')
    ).ok<Page<ContractListRow>>(contractApi.list, { pageNum: 1, pageSize: 5, state: 'approved' });
    expect({ total: theirs.total, codes: theirs.list }).toEqual({ total: 0, codes: [] });
    expect(
      (await own.ok<Page<ContractListRow>>(contractApi.list, { pageNum: 1, pageSize: 5, state: 'approved' }))
        .total,
    ).toBe(1);
  });

  it('binds an organisation scope to the caller’s organisation', async () => {
    const [admin] = await queryRows<{ dept: number | null }>(
      db(),
      sql`select dept_id::int as dept from users where user_name = 'admin'`,
    );
    expect(admin!.dept).not.toBeNull();
    const { userId, roleId } = await createUserWithCodes(db(), 'tally-dept', 'Own@1234567890', [
      'ft-contract-info',
    ]);
    await db().execute(sql`update roles set data_scope = 'dept' where id = ${roleId}`);
    await db().execute(sql`update users set dept_id = ${admin!.dept} where id = ${userId}`);
    const [expected] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from contracts c
           where c.deleted_at is null and c.state = 'approved' and c.org_id = ${admin!.dept}`,
    );
    expect(expected!.n).toBeGreaterThan(0);
    const seen = await (
      await t.login('tally-dept', 'Own@1234567890')
    ).ok<Page<ContractListRow>>(contractApi.list, { pageNum: 1, pageSize: 5, state: 'approved' });
    expect(seen.total).toBe(expected!.n);
  });

  it('pages in the sort order with the same total, and a page past the end still answers it', async () => {
    for (const amount of ['110000.00', '50000.00', '110000.00'])
      await draftContract(maker, contractBody(f, { financingAmount: amount }));
    const codes = await queryRows<{ code: string }>(
      db(),
      sql`select biz_code as code from contracts where deleted_at is null
            order by financing_amount desc, updated_at desc, id desc`,
    );
    expect(codes.length).toBeGreaterThan(4);
    for (const extra of [{}, { startDateFrom: '2000-01-01' }]) {
      const pages = [];
      for (let pageNum = 1; pageNum <= Math.ceil(codes.length / 3); pageNum++) {
        const p = await maker.ok<Page<ContractListRow>>(contractApi.list, {
          pageNum,
          pageSize: 3,
          orderBy: 'financingAmount',
          order: 'desc',
          ...extra,
        });
        expect(p.total).toBe(codes.length);
        pages.push(...p.list.map((r) => r.bizCode));
      }
      expect(pages).toEqual(codes.map((c) => c.code));
      const far = await maker.ok<Page<ContractListRow>>(contractApi.list, {
        pageNum: 1000,
        pageSize: 3,
        ...extra,
      });
      expect({ list: far.list, total: far.total }).toEqual({ list: [], total: codes.length });
    }
    const none = await maker.ok<Page<ContractListRow>>(contractApi.list, {
      pageNum: 1,
      pageSize: 3,
      contractNo: '无此合同',
    });
    expect({ list: none.list, total: none.total }).toEqual({ list: [], total: 0 });
  });

  it('walks forward and back from page boundaries in every sort, like OFFSET, and continues a walk', async () => {
    for (const amount of ['110000.00', '110000.00', '70000.00', '110000.00'])
      await draftContract(maker, contractBody(f, { financingAmount: amount }));
    const sorts = [
      {
        orderBy: 'financingAmount',
        order: 'desc',
        sql: sql`financing_amount desc, updated_at desc, id desc`,
      },
      { orderBy: 'financingAmount', order: 'asc', sql: sql`financing_amount asc, updated_at desc, id desc` },
      { orderBy: 'contractNo', order: 'asc', sql: sql`contract_no asc, updated_at desc, id desc` },
      { orderBy: 'startDate', order: 'desc', sql: sql`start_date desc, updated_at desc, id desc` },
      { sql: sql`updated_at desc, id desc` },
    ] as const;
    for (const { sql: order, ...sort } of sorts) {
      const codes = (
        await queryRows<{ code: string }>(
          db(),
          sql`select biz_code as code from contracts where deleted_at is null order by ${order}`,
        )
      ).map((c) => c.code);
      const size = 2;
      const last = Math.ceil(codes.length / size);
      const at = async (pageNum: number) =>
        (
          await maker.ok<Page<ContractListRow>>(contractApi.list, { pageNum, pageSize: size, ...sort })
        ).list.map((r) => r.bizCode);
      const expected = (pageNum: number) => codes.slice((pageNum - 1) * size, pageNum * size);
      // Jump to the last page (OFFSET), walk back to page 1 (keyset), then forward again (keyset).
      for (const pageNum of [last, ...Array.from({ length: last }, (_, i) => last - i), 2, 3])
        expect(await at(pageNum), `${JSON.stringify(sort)} page ${pageNum}`).toEqual(expected(pageNum));
    }
    // A contract saved during a walk goes to the top; page 2 continues after page 1's last row.
    const walk = { pageSize: 2, orderBy: 'contractNo', order: 'desc' } as const;
    const page1 = await maker.ok<Page<ContractListRow>>(contractApi.list, { pageNum: 1, ...walk });
    await draftContract(maker, contractBody(f, { contractNo: 'ZZZ-走到最前' }));
    const page2 = await maker.ok<Page<ContractListRow>>(contractApi.list, { pageNum: 2, ...walk });
    expect(page2.list.map((r) => r.bizCode)).not.toContain(page1.list[1]!.bizCode);
    expect(page2.list[0]!.contractNo < page1.list[1]!.contractNo).toBe(true);
    expect(page2.total).toBe(page1.total + 1);
  });

  it('compaction folds the deltas into one row per key and keeps every total', async () => {
    const before = await counted();
    const rows = async () =>
      queryRows<{ n: number; keys: number }>(
        db(),
        sql`select count(*)::int as n, count(distinct (created_by, state, status, loan_state))::int as keys
              from contract_tally`,
      );
    expect((await rows())[0]!.n).toBeGreaterThan((await rows())[0]!.keys);
    const rowsAll = async () =>
      queryRows<{ n: number; keys: number }>(
        db(),
        sql`select count(*)::int as n, count(distinct (state, status, loan_state))::int as keys
              from contract_tally_all`,
      );
    expect((await rowsAll())[0]!.n).toBeGreaterThan((await rowsAll())[0]!.keys);
    await compactContractTally(db());
    const [after] = await rows();
    expect(after!.n).toBe(after!.keys);
    const [afterAll] = await rowsAll();
    expect(afterAll!.n).toBe(afterAll!.keys);
    await expectTallyAgrees();
    expect((await counted()).tallied).toEqual(before.tallied);
    const ctids = async () =>
      queryRows<{ ctid: string }>(db(), sql`select ctid::text from contract_tally order by 1`);
    const settled = await ctids();
    await compactContractTally(db());
    expect(await ctids()).toEqual(settled);
    await expectTotalsExact(maker);
  });

  it('stays exact under concurrent saves, deletes and compactions', async () => {
    const work: Promise<unknown>[] = [];
    const saved = await Promise.all(Array.from({ length: 10 }, () => draftContract(maker, contractBody(f))));
    for (let i = 0; i < 20; i++) work.push(maker.ok(contractApi.infoSave, contractBody(f)));
    for (const s of saved) work.push(maker.ok(contractApi.infoDelete, undefined, q(s.bizCode)));
    for (let i = 0; i < 5; i++) work.push(compactContractTally(db()));
    await Promise.all(work);
    console.info('contract tally: 20 saves, 10 deletes and 5 compactions concurrently');
    await expectTallyAgrees();
    await compactContractTally(db());
    await expectTallyAgrees();
    await expectTotalsExact(maker);
  });
});
