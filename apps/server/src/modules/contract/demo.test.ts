import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractListRow, SchemeView } from '@portal/contract/contract';
import type { UtilisationRow } from '@portal/contract/credit';
import type { Page } from '@portal/contract/api';
import { createTestPortal, type TestPortal } from '../../platform/testing/harness';
import { C } from '../credit/testkit';
import { K } from './testkit';

let t: TestPortal;
beforeAll(async () => {
  t = await createTestPortal({ DEMO_DATA: 'on' });
});
afterAll(() => t.close());

describe('demo contracts', () => {
  it('gives two live contracts (occupying the demo credit), one pending and one draft', async () => {
    const admin = await t.login();
    const list = await admin.ok<Page<ContractListRow>>(K('list'), { orderBy: 'contractNo', order: 'asc' });
    expect(list.list.map((c) => [c.contractNo, c.state, c.status])).toEqual([
      ['DEMO-BL-001', 'approved', 'effective'],
      ['DEMO-BL-002', 'approved', 'effective'],
      ['DEMO-BL-003', 'pending', 'none'],
      ['DEMO-BL-004', 'draft', 'none'],
    ]);
    const util = await admin.ok<UtilisationRow[]>(C('utilisation'), {});
    expect(util[0]).toMatchObject({ occupiedAmount: '4200000.00', availableAmount: '45800000.00' });
    const plan = await admin.ok<SchemeView>(K('schemeView'), undefined, {
      query: { contBizCode: list.list[0]!.bizCode },
    });
    // Started four months before the business date: the first items are due and unpaid.
    expect(plan.items.filter((i) => i.status === '逾期').length).toBeGreaterThan(0);
    const pending = await admin.ok<{ canApprove: boolean }>('/api/ft/api/workflow/process', undefined, {
      query: { docType: 'contract', docCode: list.list[2]!.bizCode },
    });
    expect(pending.canApprove).toBe(true);
  });
});
