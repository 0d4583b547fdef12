import { sql } from 'drizzle-orm';
import { CREDIT_PATHS, type PlatformSave } from '@portal/contract/credit';
import type { Db } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { hashPassword } from '../../platform/auth/password-hash';
import {
  servedPaths,
  TEST_PASSWORD_HASH_COST,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';

/** Test helpers of the credit module (used by its tests; the contract tests may reuse them). */
export const creditApi = servedPaths(CREDIT_PATHS);

let uscc = 0;
/**
 * A customer straight into the company table (the company module's own tests cover its API),
 * admitted (客户准入) unless `admission` says otherwise.
 */
export async function addCustomer(
  db: Db,
  name: string,
  opts: { parent?: string; roles?: string[]; state?: string; admission?: 'pending' | 'admitted' } = {},
): Promise<string> {
  const code = await nextCode(db, 'comp');
  uscc++;
  const roles = `{${(opts.roles ?? ['supplier']).join(',')}}`;
  await db.execute(sql`insert into companies (comp_code, comp_name, uscc_code, comp_type, roles, legal_person, reg_capital, parent_comp_code, state, admission)
    values (${code}, ${name}, ${`91310000CR${String(uscc).padStart(8, '0')}`}, 'private', ${roles}::text[], '法人', 1000000, ${opts.parent ?? null}, ${opts.state ?? 'enabled'}, ${opts.admission ?? 'admitted'})`);
  return code;
}

/** A second user holding the admin role: the checker of four-eyes approvals. */
export async function addChecker(t: TestPortal, userName = 'checker'): Promise<TestClient> {
  const { db } = t.database;
  const password = 'Checker@123456';
  await db.execute(sql`insert into users (user_code, user_name, real_name, password_hash)
    values (${await nextCode(db, 'user')}, ${userName}, '复核员', ${await hashPassword(password, TEST_PASSWORD_HASH_COST)})`);
  await db.execute(
    sql`insert into user_roles select u.id, r.id from users u, roles r where u.user_name = ${userName} and r.code = 'admin'`,
  );
  return t.login(userName, password);
}

export function platform(custCode: string, over: Partial<PlatformSave> = {}): PlatformSave {
  return {
    custCode,
    limitAmount: '1000000.00',
    currency: 'CNY',
    startDate: '2026-01-01',
    endDate: '2026-12-31',
    cycle: 'cyclical',
    product: 'factoring',
    ...over,
  };
}

export interface Saved {
  bizCode: string;
  version: number;
  state: string;
}

/** Saves, adds factoring sub-limits, submits and approves a credit; answers its code. */
export async function approvedCredit(
  maker: TestClient,
  checker: TestClient,
  custCode: string,
  opts: { over?: Partial<PlatformSave>; debtors?: { debtorName: string; limitAmount: string }[] } = {},
): Promise<string> {
  const s = await maker.ok<Saved>(creditApi.saveCreditPlatform, platform(custCode, opts.over));
  let version = s.version;
  if (opts.debtors?.length) {
    const r = await maker.ok<Saved>(creditApi.saveCreditFt, {
      credBizCode: s.bizCode,
      version,
      items: opts.debtors.map((d) => ({ ...d, financingRatio: '0.8', recourse: 'with' })),
    });
    version = r.version;
  }
  await maker.ok(creditApi.saveCreditPlatform, {
    ...platform(custCode, opts.over),
    bizCode: s.bizCode,
    version,
    submit: true,
  });
  await checker.ok(creditApi.passCredit, { comment: '同意' }, { query: { bizCode: s.bizCode } });
  return s.bizCode;
}
