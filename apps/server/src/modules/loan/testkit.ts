import { LOAN_PATHS, type LoanInit } from '@portal/contract/loan';
import type { ContractInfo } from '@portal/contract/contract';
import { servedPaths, type TestClient } from '../../testing/harness';
import { contractApi } from '../contract/testkit';

/** Test helpers of the 放款单 (for its tests and for the modules that need a disbursed contract). */
export const loanApi = servedPaths(LOAN_PATHS);
export const lq = (loanBizCode: string) => ({ query: { loanBizCode } });

let n = 0;

/** One of the supplier's own accounts (the payee of a disbursement). */
export async function addSupplierAccount(maker: TestClient, custCode: string): Promise<string> {
  n++;
  const r = await maker.ok<{ bizCode: string }>('/api/ft/api/bank/save', {
    ownerType: 'customer',
    ownerCode: custCode,
    bankCode: '105',
    branchName: '北京分行',
    accountName: '供应商收款户',
    accountNo: `6217${String(Date.now() % 1e9).padStart(9, '0')}${String(n).padStart(4, '0')}`,
    purpose: 'collect',
  });
  return r.bizCode;
}

export interface LoanBody {
  contBizCode: string;
  valueDate: string;
  payBankBizCode: string;
  payeeBankBizCode: string;
  serialNo: string;
  submit?: boolean;
}

/** A 放款单 body for a contract: our account from the contract, a new supplier account. */
export async function loanBody(
  maker: TestClient,
  contBizCode: string,
  over: Partial<LoanBody> = {},
): Promise<LoanBody> {
  n++;
  const c = await maker.ok<ContractInfo>(contractApi.infoView, undefined, {
    query: { bizCode: contBizCode },
  });
  return {
    contBizCode,
    valueDate: c.startDate,
    payBankBizCode: c.bankBizCode,
    payeeBankBizCode: over.payeeBankBizCode ?? (await addSupplierAccount(maker, c.custCode)),
    serialNo: `FK${Date.now()}${n}`,
    ...over,
  };
}

/** Saves and submits a 放款单 (maker) and approves it (checker); answers its code. */
export async function disburse(
  maker: TestClient,
  checker: TestClient,
  contBizCode: string,
  over: Partial<LoanBody> = {},
): Promise<string> {
  const body = await loanBody(maker, contBizCode, over);
  const saved = await maker.ok<{ loanBizCode: string }>(loanApi.saveBaseInfo, { ...body, submit: true });
  await checker.ok(loanApi.audit, { comment: '同意放款' }, lq(saved.loanBizCode));
  return saved.loanBizCode;
}

/** 冲红 of a 放款单: the maker asks (with a reason), the checker approves the entry; answers its code. */
export async function reverseLoan(
  maker: TestClient,
  checker: TestClient,
  loanBizCode: string,
  reason = '测试冲红',
): Promise<string> {
  const { loanRedBizCode } = await maker.ok<{ loanRedBizCode: string }>(
    loanApi.rushRed,
    { reason },
    lq(loanBizCode),
  );
  await checker.ok(loanApi.redAudit, { comment: '同意冲红' }, { query: { loanRedBizCode } });
  return loanRedBizCode;
}

export type { LoanInit };
