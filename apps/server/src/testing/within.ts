import { expect } from 'vitest';
import { PERMISSION_MESSAGES } from '@portal/contract/permission';
import { GRANT_TARGETS, type GrantTarget } from '../platform/http/route-scope';
import { tableChecksums } from './checksum';
import type { TestClient, TestPortal } from './harness';

const WIDER: Record<GrantTarget, string> = {
  staff: PERMISSION_MESSAGES.userWider,
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
  targets: Record<GrantTarget, string>,
): Promise<void> {
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
  // The user's update, status, remove and reset; the role's update, remove and cfgSave.
  expect(calls).toBeGreaterThanOrEqual(7);
  expect(await tableChecksums(t.database.db)).toEqual(before);
}
