import Decimal from 'decimal.js';
import type { Executor } from '../../platform/db/client';
import { conflict } from '../../platform/errors';
import { requireEffective, type ContractRow } from './queries';
import { openUpfrontDues } from './plan';

/** isPrevious: the contract's up-front dues still to collect, for a prepayment to take. */
export async function prepaymentInit(ex: Executor, row: ContractRow) {
  requireEffective(row, '生成前期款');
  const dues = await openUpfrontDues(ex, row.id);
  if (dues.length === 0) throw conflict('该合同没有待收的前期款项');
  return {
    contBizCode: row.bizCode,
    contractNo: row.contractNo,
    custCode: row.custCode,
    custName: row.custName,
    dues: dues.map((d) => ({
      id: d.id,
      kind: d.kind,
      amount: d.amount,
      receivedAmount: d.receivedAmount,
      openAmount: new Decimal(d.amount).minus(d.receivedAmount).toFixed(2),
      dueDate: d.dueDate,
    })),
  };
}
