import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULER_PATHS } from '@portal/contract/ruler';
import { WORKFLOW_PATHS } from '@portal/contract/workflow';
import type { PortalModule } from './platform/module';
import { queryRows } from './platform/db/client';
import { conflict } from './platform/errors';
import { RULE_USAGE } from './modules/ruler/service';
import { WORKFLOW_REGISTRY } from './modules/workflow';
import { createUser, SAMPLE, SAMPLE_PATHS, sampleModule, sampleModuleWith } from './modules/workflow/testkit';
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

/** The workflow's sample document, declared again by a later portal with an approval hook that refuses. */
const refusingSample = sampleModuleWith({
  async onApprove() {
    throw conflict('另一门户的审核钩子');
  },
});

let holding: TestPortal;
let refusing: TestPortal;
let plain: TestPortal;

// Three whole portals, built one after another (a later registration used to replace an earlier
// one): slower to build than one on a busy machine.
beforeAll(async () => {
  holding = await createTestPortal({}, [holdsEveryRule, sampleModule]);
  refusing = await createTestPortal({}, [refusingSample]);
  plain = await createTestPortal();
}, 300_000);
afterAll(async () => {
  await holding?.close();
  await refusing?.close();
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

/** Saves and submits a sample document as admin, and approves its one step as a risk checker. */
async function approveSample(t: TestPortal): Promise<{ status: number; msg: string; effects: string[] }> {
  const admin = await t.login();
  const { bizCode } = await admin.ok<{ bizCode: string }>(SAMPLE_PATHS.save, {
    title: '隔离单据',
    amount: '100.00',
    submit: true,
  });
  const userName = `risk-${bizCode}`;
  await createUser(t.database.db, userName, '风控', ['risk']);
  const risk = await t.login(userName);
  const r = await risk.call(SAMPLE_PATHS.audit, {}, { query: { bizCode } });
  const effects = await queryRows<{ kind: string }>(
    t.database.db,
    sql`select kind from sample_effects where doc_code = ${bizCode} order by id`,
  );
  return { status: r.status, msg: r.msg, effects: effects.map((e) => e.kind) };
}

describe('document types of two portals in one process', () => {
  it('each portal runs its own hooks of a type both declare', async () => {
    expect(await approveSample(holding)).toMatchObject({ status: 200, effects: ['approved'] });
    expect(await approveSample(refusing)).toMatchObject({
      status: 409,
      msg: '另一门户的审核钩子',
      effects: [],
    });
  });

  it('a portal that declares no sample document knows none', async () => {
    const registry = (t: TestPortal) => t.portal.registries.get(WORKFLOW_REGISTRY);
    expect(registry(holding).find(SAMPLE)).toBeDefined();
    expect(registry(plain).find(SAMPLE)).toBeUndefined();
    expect(registry(plain).pipelinedTypes().has(SAMPLE)).toBe(false);
    const admin = await plain.login();
    // The to-do reads the state of every registered type's documents: none of sample_docs here.
    expect((await admin.call(served(WORKFLOW_PATHS.counts))).status).toBe(200);
    const view = await admin.call(served(WORKFLOW_PATHS.process), undefined, {
      query: { docType: SAMPLE, docCode: 'SAMPLE-1' },
    });
    expect([view.status, view.msg]).toEqual([400, '单据类型不正确']);
  });
});
