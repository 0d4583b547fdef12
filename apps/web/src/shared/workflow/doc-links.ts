import type { DocType } from '@portal/contract/workflow';

/** Where each document type's view screen lives (menu catalogue), opened with `?bizCode=`. */
export const DOC_VIEW_PATHS: Record<DocType, string> = {
  contract: '/factoring/contract/info-view',
  contractChange: '/factoring/contract/change-view',
  handover: '/factoring/contract/handover-view',
  prepayment: '/factoring/pa/mgr-view',
  income: '/factoring/accounts/income-view',
  paid: '/factoring/accounts/paid-view',
  paidRed: '/factoring/accounts/paid-red-view',
  credit: '/factoring/credit/info-view',
  credDistribution: '/factoring/credit/distribution-view',
  credChange: '/factoring/credit/change-view',
  compInfoChange: '/crm/corporation/change-view',
  compManagerChange: '/crm/corporation/manager-view',
};

export function docViewUrl(docType: string, docCode: string): string | undefined {
  const path = (DOC_VIEW_PATHS as Record<string, string | undefined>)[docType];
  return path ? `${path}?bizCode=${encodeURIComponent(docCode)}` : undefined;
}
