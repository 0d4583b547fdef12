import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULER_PATHS } from '@portal/contract/ruler';
import type { PortalModule } from './platform/module';
import { RULE_USAGE } from './modules/ruler/service';
import { createTestPortal, served, type TestClient, type TestPortal } from './testing/harness';

/**
 * Registries live as long as one portal (docs/architecture.md "Modules"): what one portal's
 * modules register reaches nothing in another portal built in the same process (as tests do).
 */
const holdsEveryRule: PortalModule = {
  name: 'holds-every-rule',
  register({ registries }) {
    registries.get(RULE_USAGE).add(async () => '样例模块占用');
  },
};

const rule = {
  name: '隔离规则',
  annualRate: '0.0850',
  dayCount: 'ACT/360',
  method: 'BULLET',
  interestCollection: 'BACK',
  feeRate: '0.005',
  feeCollection: 'FRONT',
  penalty: { mode: 'MULTIPLE', value: '1.5' },
  graceDays: 3,
};

let holding: TestPortal;
let plain: TestPortal;

// Two whole portals: slower to build than one on a busy machine.
beforeAll(async () => {
  holding = await createTestPortal({}, [holdsEveryRule]);
  plain = await createTestPortal();
}, 180_000);
afterAll(async () => {
  await holding?.close();
  await plain?.close();
});

async function deleteNewRule(admin: TestClient): Promise<{ status: number; msg: string }> {
  const { bizCode } = await admin.ok<{ bizCode: string }>(served(RULER_PATHS.save), rule);
  const r = await admin.call(served(RULER_PATHS.del), undefined, { query: { bizCode } });
  return { status: r.status, msg: r.msg };
}

describe('registries of two portals in one process', () => {
  it('a usage check registered in one portal refuses deletes there only', async () => {
    expect(await deleteNewRule(await holding.login())).toEqual({
      status: 409,
      msg: '计息规则正在使用中，不能删除：样例模块占用',
    });
    expect((await deleteNewRule(await plain.login())).status).toBe(200);
  });
});
