import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_PATHS } from '@portal/contract/company';
import { CONTRACT_PATHS } from '@portal/contract/contract-paths';
import { INCOME_PATHS } from '@portal/contract/accounts';
import { MONITOR_PATHS } from '@portal/contract/monitor';
import type { PortfolioFigures } from '@portal/contract/dashboard';
import { DASHBOARD_PATHS } from '@portal/contract/dashboard';
import type { Page } from '@portal/contract/api';
import { buildPortal, serverRoot } from '../../server';
import { loadConfig } from '../config';
import { hashPassword } from '../auth/password-hash';
import { createTestDb, TestClient, type TestDb, TEST_PASSWORD_HASH_COST } from '../../testing/harness';
import { queryRows } from './client';
import { migrate } from './migrate';

/**
 * Upgrade (docs/operations.md "Upgrading"): a database made by the first migration set
 * (platform and master data) with an office's data in it takes every later migration, starts on
 * this release, and reads its data back; its first start counts as done, so no demo data lands in
 * it. On PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
const FIRST_SET = ['0001_platform.sql', '0003_masterdata.sql'];
const PASSWORD = 'Old@release2026';

let t: TestDb;
let oldDir: string;
beforeAll(async () => {
  t = await createTestDb({ empty: true });
  oldDir = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
  for (const f of FIRST_SET) copyFileSync(join(serverRoot(), 'migrations', f), join(oldDir, f));
});
afterAll(async () => {
  await t.drop();
  rmSync(oldDir, { recursive: true, force: true });
});

describe('a database of the first release', () => {
  it('takes every later migration with its data in it and starts with that data', async () => {
    expect(await migrate(t.database, oldDir)).toEqual(FIRST_SET);
    const { db } = t.database;
    // What an office had entered with the first release: staff, a role, customers, an account.
    await db.execute(sql`insert into depts (biz_code, name) values ('DP0000000001', '总部')`);
    await db.execute(
      sql`insert into roles (biz_code, name, code, data_scope) values ('RL0000000001', '超级管理员', 'admin', 'all')`,
    );
    await db.execute(sql`insert into role_menus (role_id, menu_code) values (1, 'admin')`);
    await db.execute(sql`insert into users (user_code, user_name, real_name, dept_id, password_hash)
      values ('US0000000001', 'admin', '系统管理员', 1, ${await hashPassword(PASSWORD, TEST_PASSWORD_HASH_COST)}),
             ('US0000000002', 'clerk', '老员工', 1, ${await hashPassword(PASSWORD, TEST_PASSWORD_HASH_COST)})`);
    await db.execute(sql`insert into user_roles (user_id, role_id) values (1, 1)`);
    await db.execute(sql`insert into companies (comp_code, comp_name, uscc_code, comp_type, roles, legal_person, reg_capital)
      values ('CP0000000001', '老客户甲有限公司', '91310000MA1FL00011', 'enterprise', '{supplier}', '张三', 1234567.89),
             ('CP0000000002', '老客户乙有限公司', '91310000MA1FL00022', 'enterprise', '{buyer}', '李四', 500000.00)`);
    await db.execute(sql`insert into banks (code, name) values ('102', '中国工商银行')`);
    await db.execute(sql`insert into bank_accounts (biz_code, owner_type, bank_code, branch_name, account_name, account_no, currency, purpose)
      values ('BA0000000001', 'self', '102', '上海分行', '老保理有限公司', '622200001111', 'CNY', 'collect')`);

    const later = readdirSync(join(serverRoot(), 'migrations')).filter(
      (f) => f.endsWith('.sql') && !FIRST_SET.includes(f),
    );
    const portal = await buildPortal({
      config: loadConfig({ DEMO_DATA: 'on', WEB_DIST: '', BUSINESS_DATE: '2026-01-15' }),
      database: t.database,
      logger: false,
    });
    try {
      const applied = await queryRows<{ name: string }>(
        db,
        sql`select name from schema_migrations order by name`,
      );
      expect(applied.map((r) => r.name)).toEqual([...FIRST_SET, ...later].sort());
      // Started before: no admin created, no demo loaded.
      expect(portal.firstStart).toEqual({ created: false, demo: false, logins: [] });
      const client = new TestClient(portal);
      const login = await client.ok<{ accessToken: string }>(
        '/api/admin/portal/api/login/user/mobileNumberLogin',
        {
          userName: 'admin',
          passWord: PASSWORD,
          userType: '2',
        },
      );
      client.token = login.accessToken;
      const page = await client.ok<Page<{ compName: string; regCapital: string }>>(
        `/api${COMPANY_PATHS.list}`,
        {},
      );
      expect(page.list.map((c) => [c.compName, c.regCapital]).sort()).toEqual([
        ['老客户乙有限公司', '500000.00'],
        ['老客户甲有限公司', '1234567.89'],
      ]);
      const rows = await queryRows<{ users: number; accounts: number; settings: string }>(
        db,
        sql`select (select count(*)::int from users) as users, (select count(*)::int from bank_accounts) as accounts,
                   (select value from portal_settings where key = 'first_start') as settings`,
      );
      expect(rows[0]).toEqual({ users: 2, accounts: 1, settings: 'before-0019' });
    } finally {
      await portal.close();
    }
  });
});

/**
 * The tables of an office's business, as the release that wrote them knew them: each row as JSON,
 * by id. After the upgrade only the columns the old release had are compared (later migrations add
 * columns; they must not change what was there).
 */
const BUSINESS_TABLES = [
  'companies',
  'credits',
  'credit_lines',
  'credit_ledger',
  'contracts',
  'contract_plan_items',
  'contract_dues',
  'contract_receivables',
  'incomes',
  'paids',
  'paid_lines',
  'wf_instances',
  'wf_records',
] as const;

type Snapshot = Record<string, Record<string, unknown>[]>;

async function snapshot(db: TestDb['database']['db']): Promise<Snapshot> {
  const out: Snapshot = {};
  for (const table of BUSINESS_TABLES) {
    const rows = await queryRows<{ row: Record<string, unknown> }>(
      db,
      sql`select to_jsonb(t) as row from ${sql.identifier(table)} t order by t.id`,
    );
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

function only(after: Snapshot, before: Snapshot): Snapshot {
  return Object.fromEntries(
    Object.entries(after).map(([table, rows]) => {
      const keys = Object.keys(before[table]?.[0] ?? {});
      return [table, rows.map((r) => Object.fromEntries(keys.map((k) => [k, r[k]])))];
    }),
  );
}

/**
 * What migration 0048 means to change: the server's own writes, once recorded under the name
 * 'system', read 系统 (a `…_name` column of a row with no user). Nothing else may differ.
 */
function systemRenamed(snap: Snapshot): Snapshot {
  return Object.fromEntries(
    Object.entries(snap).map(([table, rows]) => [
      table,
      rows.map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [k, k.endsWith('_name') && v === 'system' ? '系统' : v]),
        ),
      ),
    ]),
  );
}

/**
 * The last release that landed (migrations 0001–0018) as an office left it: its first start with
 * demo data on PostgreSQL, dumped (test/fixtures/release-0018.sql: customers, a credit, four
 * contracts with their plans and dues, receipts, a write-off, approvals, operation log).
 */
describe('a database of the last landed release (0018) with its demo office', () => {
  it('takes every later migration over contracts, credits, receipts and write-offs, and shows them unchanged', async () => {
    const old = await createTestDb({ empty: true });
    const dir = mkdtempSync(join(tmpdir(), 'portal-migrations-0018-'));
    try {
      const upTo0018 = readdirSync(join(serverRoot(), 'migrations')).filter(
        (f) => f.endsWith('.sql') && f <= '0018_~',
      );
      for (const f of upTo0018) copyFileSync(join(serverRoot(), 'migrations', f), join(dir, f));
      expect(await migrate(old.database, dir)).toEqual(upTo0018);
      const fixture = readFileSync(join(serverRoot(), 'test/fixtures/release-0018.sql'), 'utf8');
      // The migrations seed some tables (menus, workflow settings); the dump holds their whole
      // content as the old release left it, so they are emptied first.
      const tables = [...new Set([...fixture.matchAll(/^INSERT INTO (\w+) /gm)].map((m) => m[1]!))];
      await old.database.rawTransaction(async (conn) => {
        await conn.exec(`truncate ${tables.join(', ')} cascade`);
        await conn.exec(fixture);
      });
      const before = await snapshot(old.database.db);
      expect(before.contracts).toHaveLength(4);
      expect(before.paids).toHaveLength(1);

      const portal = await buildPortal({
        config: loadConfig({ DEMO_DATA: 'on', WEB_DIST: '', BUSINESS_DATE: '2026-01-15' }),
        database: old.database,
        logger: false,
      });
      try {
        // Started before (an admin exists): no first start, no second demo office.
        expect(portal.firstStart).toEqual({ created: false, demo: false, logins: [] });
        expect(only(await snapshot(old.database.db), before)).toEqual(systemRenamed(before));

        const client = new TestClient(portal);
        const login = await client.ok<{ accessToken: string }>(
          '/api/admin/portal/api/login/user/mobileNumberLogin',
          // The password the old release's first start was given (ADMIN_PASSWORD).
          { userName: 'admin', passWord: 'Admin@12345678', userType: '2' },
        );
        client.token = login.accessToken;
        const contracts = await client.ok<Page<{ bizCode: string }>>(`/api${CONTRACT_PATHS.list}`, {
          pageSize: 50,
        });
        expect(contracts.list.map((c) => c.bizCode).sort()).toEqual(
          before.contracts!.map((c) => String(c.biz_code).trim()).sort(),
        );
        for (const c of contracts.list) {
          const view = await client.call(
            `/api${CONTRACT_PATHS.infoView}`,
            {},
            { query: { bizCode: c.bizCode } },
          );
          expect(view.status, `${c.bizCode}: ${view.msg}`).toBe(200);
        }
        const incomes = await client.ok<Page<unknown>>(`/api${INCOME_PATHS.list}`, { pageSize: 50 });
        expect(incomes.total).toBe(before.incomes!.length);
        // No contract of the old office was paid out: nothing outstanding, as before.
        const figures = await client.ok<PortfolioFigures>(`/api${DASHBOARD_PATHS.portfolio}`, {});
        expect(figures.outstandingPrincipal).toBe('0.00');
        // The old operation log is readable in 操作日志.
        const log = await client.ok<Page<unknown>>(`/api${MONITOR_PATHS.operLogList}`, { pageSize: 10 });
        expect(log.total).toBeGreaterThanOrEqual(100);
      } finally {
        await portal.close();
      }
    } finally {
      await old.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
