import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractListRow, SchemeView } from '@portal/contract/contract';
import type { UtilisationRow } from '@portal/contract/credit';
import type { Page } from '@portal/contract/api';
import { createTestPortal, type TestPortal } from '../../testing/harness';
import { creditApi } from '../credit/testkit';
import { contractApi } from './testkit';
import {
  INCOME_PATHS,
  PAID_PATHS,
  RECONCILE_PATHS,
  type IncomeRow,
  type PaidRow,
  type Reconciliation,
} from '@portal/contract/accounts';
import { VOUCHER_PATHS, type TrialBalance, type VoucherRow } from '@portal/contract/voucher';

let t: TestPortal;
beforeAll(async () => {
  t = await createTestPortal({ DEMO_DATA: 'on' });
});
afterAll(() => t.close());

describe('demo contracts', () => {
  it('gives two live contracts (occupying the demo credit), one pending and one draft', async () => {
    const admin = await t.login();
    const list = await admin.ok<Page<ContractListRow>>(contractApi.list, {
      orderBy: 'contractNo',
      order: 'asc',
    });
    expect(list.list.map((c) => [c.contractNo, c.state, c.status])).toEqual([
      ['DEMO-BL-001', 'approved', 'effective'],
      ['DEMO-BL-002', 'approved', 'effective'],
      ['DEMO-BL-003', 'pending', 'none'],
      ['DEMO-BL-004', 'draft', 'none'],
    ]);
    const util = await admin.ok<UtilisationRow[]>(creditApi.utilisation, {});
    expect(util[0]).toMatchObject({ occupiedAmount: '4200000.00', availableAmount: '45800000.00' });
    const plan = await admin.ok<SchemeView>(contractApi.schemeView, undefined, {
      query: { contBizCode: list.list[0]!.bizCode },
    });
    // Started four months before the business date: the first items are due and unpaid.
    expect(plan.items.filter((i) => i.status === '逾期').length).toBeGreaterThan(0);
    const pending = await admin.ok<{ canApprove: boolean }>('/api/ft/api/workflow/process', undefined, {
      query: { docType: 'contract', docCode: list.list[2]!.bizCode },
    });
    expect(pending.canApprove).toBe(true);
    // DEMO-BL-002 has its 5 % margin to collect: 生成前期款 opens with it.
    const previous = await admin.ok<{ dues: { kind: string; openAmount: string }[] }>(
      contractApi.isPrevious,
      undefined,
      {
        query: { bizCode: list.list[1]!.bizCode },
      },
    );
    expect(previous.dues).toEqual([
      expect.objectContaining({
        kind: 'margin',
        openAmount: new Decimal(list.list[1]!.financingAmount).times('0.05').toFixed(2),
      }),
    ]);
  });
});

describe('demo money', () => {
  it('gives receipts, one written off and approved, one open, one pending; the books reconcile', async () => {
    const admin = await t.login();
    const incomes = await admin.ok<Page<IncomeRow>>('/api' + INCOME_PATHS.list, {
      orderBy: 'valueDate',
      order: 'asc',
    });
    expect(incomes.list.map((i) => [i.serialNo, i.state])).toEqual([
      ['DEMO-BS-0001', 'approved'],
      ['DEMO-BS-0002', 'approved'],
      ['DEMO-BS-0003', 'pending'],
    ]);
    expect(new Decimal(incomes.list[0]!.allocated).gt(0)).toBe(true);
    const paids = await admin.ok<Page<PaidRow>>('/api' + PAID_PATHS.list, {});
    expect(paids.list.map((p) => [p.contractNo, p.state, p.amount])).toEqual([
      ['DEMO-BL-001', 'approved', incomes.list[0]!.allocated],
    ]);
    const r = await admin.ok<Reconciliation>('/api' + RECONCILE_PATHS.reconcile, {
      dateFrom: '2000-01-01',
      dateTo: '2100-12-31',
    });
    expect(r.balanced).toBe(true);
    // Every approved money event has its voucher (docs/accounting.md): each balances, and the
    // incomings' 预收款项 covers what the write-off took from it.
    const vouchers = await admin.ok<Page<VoucherRow>>('/api' + VOUCHER_PATHS.list, { pageSize: 50 });
    expect(vouchers.list.map((v) => v.docType).sort()).toEqual(['income', 'income', 'loan', 'paid']);
    for (const v of vouchers.list) {
      const tb = await admin.ok<TrialBalance>('/api' + VOUCHER_PATHS.trial, { period: v.period });
      expect(tb.balanced).toBe(true);
      const advance = tb.rows.find((a) => a.accountCode === '2203');
      if (advance) expect(new Decimal(advance.closingDebit).isZero()).toBe(true);
    }
  });
});
