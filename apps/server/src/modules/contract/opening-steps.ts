import type { Actor } from '../../platform/db/audit';
import type { Tx } from '../../platform/db/client';
import { registryKey, type Registries } from '../../platform/module';
import type { PlanPayment } from './postings';

/**
 * What a 期初导入 (contract/opening.ts) asks of the modules above contract: paid records what each
 * plan item had been repaid (`recordRepayment`), voucher posts the contract's 期初 voucher
 * (`postVoucher`). They put their function here when the portal is built, so that contract imports
 * neither of them: paid and voucher depend on contract, never the other way (docs/architecture.md
 * "Modules", no import cycle between modules).
 */
export interface OpeningSteps {
  recordRepayment?: (tx: Tx, p: OpeningRepayment) => Promise<{ code: string; released: string }>;
  postVoucher?: (tx: Tx, event: OpeningVoucher, actor: Actor) => Promise<unknown>;
}

/** One plan item's repayments before the import (paid's approved write-off of kind 'opening'). */
export interface OpeningRepayment {
  contract: { id: number; lineCode: string; contractNo: string };
  period: number;
  paidDate: string;
  lines: readonly PlanPayment[];
  actor: Actor;
  today: string;
}

/** The 期初 voucher's event (docs/accounting.md "期初"). */
export interface OpeningVoucher {
  kind: 'opening';
  docCode: string;
  date: string;
  principal: string;
  margin: string;
  upfrontInterest: string;
  upfrontInterestEarned: string;
  aux: { custCode: string | null; custName: string | null; contractNo: string | null };
}

export const OPENING_STEPS = registryKey<OpeningSteps>('contract.openingSteps', () => ({}));

/** This portal's steps; a portal built without paid or voucher cannot import openings. */
export function openingSteps(registries: Registries): Required<OpeningSteps> {
  const steps = registries.get(OPENING_STEPS);
  if (!steps.recordRepayment || !steps.postVoucher)
    throw new Error('期初导入 needs the paid and voucher modules registered (contract/opening-steps.ts)');
  return { recordRepayment: steps.recordRepayment, postVoucher: steps.postVoucher };
}
