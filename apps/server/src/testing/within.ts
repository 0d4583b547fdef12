import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { PERMISSION_MESSAGES } from '@portal/contract/permission';
import { GRANT_TARGETS, type GrantTarget } from '../platform/http/route-scope';
import { queryRows } from '../platform/db/client';
import { tableChecksums } from './checksum';
import type { TestClient, TestPortal } from './harness';

const WIDER: Record<GrantTarget, string> = {
  staff: PERMISSION_MESSAGES.userWider,
  staffByName: PERMISSION_MESSAGES.userWider,
  staffBySession: PERMISSION_MESSAGES.userWider,
  role: PERMISSION_MESSAGES.roleWider,
};

/**
 * Every route of the route table declaring `within` (SECURITY.md "Nobody acts on a user or role
 * wider than themselves"), called by `client` naming the target of its kind by each of the
 * kind's parameters, answers 401 with its message, and nothing is written.
 */
export async function expectWiderRefused(
  t: TestPortal,
  client: TestClient,
  given: { staff: string; role: string },
): Promise<void> {
  const targets = { ...given, ...(await namesOf(t, given.staff)) };
  const before = await tableChecksums(t.database.db);
  let calls = 0;
  for (const r of t.portal.routes) {
    if (!r.within) continue;
    for (const param of GRANT_TARGETS[r.within].params) {
      const value = { [param]: targets[r.within] };
      const res = await client.call(r.path, r.body ? value : undefined, { method: r.method, query: value });
      expect([res.httpStatus, res.msg], `${r.path} by ${param}`).toEqual([401, WIDER[r.within]]);
      calls++;
    }
  }
  // The user's update, status, remove and reset; the role's update, remove and cfgSave; unlock, 强退.
  expect(calls).toBeGreaterThanOrEqual(9);
  expect(await tableChecksums(t.database.db)).toEqual(before);
}

/** The staff user's sign-in name and a live session of theirs (made here when they have none). */
async function namesOf(
  t: TestPortal,
  userCode: string,
): Promise<Record<'staffByName' | 'staffBySession', string>> {
  const [row] = await queryRows<{ name: string; session: string }>(
    t.database.db,
    sql`with u as (select id, user_name from users where user_code = ${userCode}),
          s as (insert into sessions (token_hash, user_id, expires_at)
                  select ${`within-${userCode}`}, u.id, now() + interval '1 hour' from u
                on conflict (token_hash) do nothing returning id)
        select u.user_name as name,
               coalesce((select id from s), (select id from sessions where token_hash = ${`within-${userCode}`}))::text as session
          from u`,
  );
  return { staffByName: row!.name, staffBySession: row!.session };
}
