import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_PATHS } from '@portal/contract/company';
import type { Page } from '@portal/contract/api';
import { buildPortal, serverRoot } from '../../server';
import { loadConfig } from '../config';
import { hashPassword } from '../auth/password-hash';
import { createTestDb, TestClient, type TestDb } from '../testing/harness';
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
  t = await createTestDb();
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
      values ('US0000000001', 'admin', '系统管理员', 1, ${await hashPassword(PASSWORD)}),
             ('US0000000002', 'clerk', '老员工', 1, ${await hashPassword(PASSWORD)})`);
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
