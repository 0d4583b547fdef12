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
  loan: '/factoring/accounts/loan-view',
  loanRed: '/factoring/accounts/loan-red-view',
  classAdjust: '/factoring/accounts/classification-view',
  buyback: '/factoring/accounts/buyback-view',
  buybackSettle: '/factoring/accounts/buyback-settle-view',
  badDebt: '/factoring/accounts/bad-debt-view',
  credit: '/factoring/credit/info-view',
  credDistribution: '/factoring/credit/distribution-view',
  credChange: '/factoring/credit/change-view',
  compInfoChange: '/crm/corporation/change-view',
  compManagerChange: '/crm/corporation/manager-view',
  custAdmission: '/factoring/config/admission-view',
};

export function docViewUrl(docType: string, docCode: string): string | undefined {
  const path = (DOC_VIEW_PATHS as Record<string, string | undefined>)[docType];
  return path ? `${path}?bizCode=${encodeURIComponent(docCode)}` : undefined;
}

/**
 * Where a rejected document is corrected (the 被驳回 to-do opens it): the editor route and the
 * query name it reads its code from. Types without one (made by another document's action) open
 * their view.
 */
const DOC_EDITORS: Partial<Record<DocType, { path: string; param: string }>> = {
  contract: { path: '/factoring/contract/info-editor', param: 'bizCode' },
  contractChange: { path: '/factoring/contract/change-editor', param: 'bizCode' },
  handover: { path: '/factoring/contract/handover-editor', param: 'bizCode' },
  prepayment: { path: '/factoring/pa/mgr-editor', param: 'preamtBizCode' },
  income: { path: '/factoring/accounts/income-editor', param: 'fiidBizCode' },
  paid: { path: '/factoring/accounts/paid-editor', param: 'paidBizCode' },
  loan: { path: '/factoring/accounts/loan-editor', param: 'loanBizCode' },
  classAdjust: { path: '/factoring/accounts/classification-editor', param: 'adjBizCode' },
  buyback: { path: '/factoring/accounts/buyback-editor', param: 'buybackBizCode' },
  badDebt: { path: '/factoring/accounts/bad-debt-editor', param: 'badDebtBizCode' },
  credit: { path: '/factoring/credit/info-editor', param: 'bizCode' },
  credDistribution: { path: '/factoring/credit/distribution-editor', param: 'bizCode' },
  credChange: { path: '/factoring/credit/change-editor', param: 'bizCode' },
};

export function docEditorUrl(docType: string, docCode: string): string | undefined {
  const editor = (DOC_EDITORS as Record<string, { path: string; param: string } | undefined>)[docType];
  if (!editor) return docViewUrl(docType, docCode);
  return `${editor.path}?${editor.param}=${encodeURIComponent(docCode)}`;
}
