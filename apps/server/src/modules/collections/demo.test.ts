import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTION_PATHS, type CollectionCaseView, type CollectionRow } from '@portal/contract/collections';
import { createTestPortal, servedPaths, type TestPortal } from '../../testing/harness';

const api = servedPaths(COLLECTION_PATHS);
let t: TestPortal;
beforeAll(async () => {
  t = await createTestPortal({ DEMO_DATA: 'on' });
}, 300_000);
afterAll(() => t?.close());

describe('demo collections', () => {
  it('show one overdue contract with its two 催收记录 and an open promise', async () => {
    const admin = await t.login();
    const page = await admin.ok<{ list: CollectionRow[] }>(api.list, { pageNum: 1, pageSize: 20 });
    const contacted = page.list.filter((r) => r.lastContactDate !== null);
    expect(contacted).toHaveLength(1);
    expect(contacted[0]).toMatchObject({
      lastContactChannel: 'visit',
      lastContactResult: 'promised',
      promiseAmount: '50000.00',
      promiseState: 'open',
      nextAction: '承诺日后电话确认回款',
    });
    expect(contacted[0]!.overdueDays).toBeGreaterThan(0);
    const view = await admin.ok<CollectionCaseView>(api.records, undefined, {
      query: { contBizCode: contacted[0]!.contBizCode },
    });
    expect(view.records.map((r) => r.result)).toEqual(['promised', 'unreachable']);
  });
});
