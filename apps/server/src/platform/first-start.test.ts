import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, createTestPortal, type TestPortal } from '../testing/harness';
import { loadConfig } from './config';
import { queryRows, type Db } from './db/client';
import type { PortalModule } from './module';
import { buildPortal } from '../server';
import { MODULES } from '../modules';
import {
  contractBody,
  draftContract,
  contractApi,
  submitContract,
  type ContractFixture,
} from '../modules/contract/testkit';
import { approvedIncome, paidApi, submittedPaid } from '../modules/paid/testkit';
import { disburse } from '../modules/loan/testkit';

/**
 * The first start (docs/operations.md "The first start"): recorded in the database,
 * all or nothing, and a demo office whose people can walk a contract through four-eyes approval.
 */
const count = async (db: Db, table: string) =>
  (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n;

const testConfig = (demo: 'on' | 'off') =>
  loadConfig({
    ADMIN_PASSWORD: 'Admin@12345678',
    DEMO_DATA: demo,
    WEB_DIST: '',
    BUSINESS_DATE: '2026-01-15',
  });

describe('a database with demo data', () => {
  let t: TestPortal;
  beforeAll(async () => {
    // Its own first start, which these tests are about (not the harness's demo template).
    t = await createTestPortal({ DEMO_DATA: 'on' }, [], { ownFirstStart: true });
  });
  afterAll(() => t.close());

  it('records the first start and loads nothing again at the next starts, demo on or off', async () => {
    const first = t.portal.firstStart;
    expect(first.created).toBe(true);
    expect(first.logins.map((l) => l.userName)).toEqual([
      'admin',
      'maker',
      'checker',
      'manager',
      'finance',
      'auditor',
    ]);
    const db = t.database.db;
    const before = { companies: await count(db, 'companies'), contracts: await count(db, 'contracts') };
    expect(before.contracts).toBeGreaterThan(0);
    for (const demo of ['on', 'off'] as const) {
      const again = await buildPortal({ config: testConfig(demo), database: t.database, logger: false });
      await again.close();
      expect(again.firstStart).toEqual({ created: false, demo: true, logins: [] });
    }
    expect({ companies: await count(db, 'companies'), contracts: await count(db, 'contracts') }).toEqual(
      before,
    );
  });

  it('has staff who walk a contract from draft to approved and written off, four eyes each time', async () => {
    const pw = new Map(t.portal.firstStart.logins.map((l) => [l.userName, l.password!]));
    const [maker, checker, finance, auditor] = await Promise.all(
      ['maker', 'checker', 'finance', 'auditor'].map((u) => t.login(u, pw.get(u))),
    );
    const db = t.database.db;
    const [f] = await queryRows<ContractFixture>(
      db,
      sql`select c.cust_code as "custCode", c.biz_code as "credBizCode", l.biz_code as "lineCode",
                 (select biz_code from interest_rules where cont_biz_code is null and method = 'BULLET' and deleted_at is null limit 1) as "ruleBizCode",
                 (select biz_code from bank_accounts where owner_type = 'self' and deleted_at is null limit 1) as "bankBizCode"
            from credits c join credit_lines l on l.credit_id = c.id and l.kind = 'platform'
           where c.state = 'approved' order by c.id limit 1`,
    );
    const body = contractBody(f!, {
      payers: [
        { payerName: '演示核心企业集团有限公司', accountNo: '6222000011112222', bankName: '中国工商银行' },
      ],
    });
    const saved = await draftContract(maker!, body);
    await submitContract(maker!, body, saved);
    const q = { query: { bizCode: saved.bizCode } };
    // The maker may not check their own document; the read-only auditor may not check at all.
    expect((await maker!.call(contractApi.infoAudit, { comment: '同意' }, q)).status).not.toBe(200);
    expect((await auditor!.call(contractApi.infoAudit, { comment: '同意' }, q)).status).not.toBe(200);
    await checker!.ok(contractApi.infoAudit, { comment: '同意' }, q);
    // Finance pays it out (放款 from the contract list opens a 放款单); the checker approves it.
    expect((await finance!.call(contractApi.isLoan, undefined, q)).status).toBe(200);
    const [payee] = await queryRows<{ code: string }>(
      db,
      sql`select biz_code as code from bank_accounts
           where owner_type = 'customer' and owner_code = ${f!.custCode} and deleted_at is null limit 1`,
    );
    await disburse(finance!, checker!, saved.bizCode, { payeeBankBizCode: payee!.code });

    const fiid = await approvedIncome(
      finance!,
      checker!,
      f!.bankBizCode,
      '5000.00',
      '2026-01-15',
      '演示核心企业集团有限公司',
    );
    const { paidBizCode } = await submittedPaid(finance!, fiid, saved.bizCode, '2026-01-15', '5000.00');
    const pq = { query: { paidBizCode } };
    expect((await finance!.call(paidApi.audit, { comment: '同意' }, pq)).status).not.toBe(200);
    await checker!.ok(paidApi.audit, { comment: '同意' }, pq);
    const [state] = await queryRows<{ contract: string; paid: string }>(
      db,
      sql`select (select state from contracts where biz_code = ${saved.bizCode}) as contract,
                 (select state from paids where biz_code = ${paidBizCode}) as paid`,
    );
    expect(state).toEqual({ contract: 'approved', paid: 'approved' });
    expect((await maker!.ok<{ loanState: string }>(contractApi.infoView, undefined, q)).loanState).toBe(
      'loaned',
    );
    // The auditor reads everything and changes nothing.
    expect((await auditor!.call(contractApi.list, {})).status).toBe(200);
    expect((await auditor!.call(contractApi.infoSave, body)).status).not.toBe(200);
  });
});

describe('a first start that dies half-way', () => {
  it('commits nothing, closes what it opened, and the next start does the whole first start', async () => {
    const { database, drop } = await createTestDb();
    try {
      let closed = 0;
      const dies: PortalModule = {
        name: 'dies',
        register: ({ app }) => {
          app.addHook('onClose', async () => {
            closed += 1;
          });
        },
        demo: () => Promise.reject(new Error('power cut')),
      };
      await expect(
        buildPortal({ config: testConfig('on'), database, logger: false, modules: [...MODULES, dies] }),
      ).rejects.toThrow('power cut');
      expect(closed, 'the failed start closed its Fastify app').toBe(1);
      const db = database.db;
      for (const table of ['portal_settings', 'users', 'companies', 'contracts'])
        expect(await count(db, table), table).toBe(0);

      const next = await buildPortal({ config: testConfig('on'), database, logger: false });
      await next.close();
      expect(next.firstStart).toMatchObject({ created: true, demo: true });
      expect(await count(db, 'contracts')).toBeGreaterThan(0);
    } finally {
      await drop();
    }
  }, 180_000);
});

describe('DEMO_DATA=off at the first start', () => {
  it('is remembered: a later start with demo data on loads none', async () => {
    const { database, drop } = await createTestDb();
    try {
      const first = await buildPortal({ config: testConfig('off'), database, logger: false });
      await first.close();
      expect(first.firstStart).toMatchObject({ created: true, demo: false });
      expect(first.firstStart.logins.map((l) => [l.userName, l.password])).toEqual([['admin', undefined]]);
      const later = await buildPortal({ config: testConfig('on'), database, logger: false });
      await later.close();
      expect(later.firstStart).toEqual({ created: false, demo: false, logins: [] });
      expect(await count(database.db, 'companies')).toBe(0);
      expect(await count(database.db, 'users')).toBe(1);
    } finally {
      await drop();
    }
  });
});
