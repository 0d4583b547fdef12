import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import { CRM_PATHS, type CompUserRow, type RelationGraph } from '@portal/contract/crm';
import { createTestPortal, type TestPortal } from '../../testing/harness';

let t: TestPortal;
beforeAll(async () => {
  t = await createTestPortal({ DEMO_DATA: 'on' });
});
afterAll(() => t.close());

describe('CRM demo data', () => {
  it('gives enterprise users (some pending) and a relation graph', async () => {
    const admin = await t.login();
    const pending = await admin.ok<Page<CompUserRow>>(`/api${CRM_PATHS.firmList}`, { regState: 'pending' });
    expect(pending.total).toBeGreaterThan(0);
    const graph = await admin.ok<RelationGraph>(`/api${CRM_PATHS.relationGraph}`, {});
    expect(graph.links.length).toBeGreaterThan(0);
  });
});
