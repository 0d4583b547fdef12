import { CREDIT_PATHS } from '@portal/contract/credit';
import type { DocKind } from '../../shared/workflow/doc-kind';
import { CREDIT_ROUTES, creditKeys } from './api';

/** Credit documents are approved through 通过 / 驳回 (their menus' pass / reject buttons). */
const PASS_REJECT = { audit: 'pass', unAudit: 'reject' } as const;

/** 授信 (credit). */
export const CREDIT_DOC: DocKind = {
  docType: 'credit',
  menuCode: 'ft-credit-info',
  codeParam: 'bizCode',
  routes: { list: CREDIT_ROUTES.list, view: CREDIT_ROUTES.view, editor: CREDIT_ROUTES.editor },
  listPath: CREDIT_PATHS.creditList,
  auditPath: CREDIT_PATHS.passCredit,
  unAuditPath: CREDIT_PATHS.rejectCredit,
  auditActions: PASS_REJECT,
  queryKey: creditKeys.all,
};

/** 额度分配 (distribution of a platform line). */
export const DISTRIBUTION_DOC: DocKind = {
  docType: 'credDistribution',
  menuCode: 'ft-credit-dist',
  codeParam: 'bizCode',
  routes: { list: CREDIT_ROUTES.distList, view: CREDIT_ROUTES.distView, editor: CREDIT_ROUTES.distEditor },
  listPath: CREDIT_PATHS.credDistributionList,
  auditPath: CREDIT_PATHS.passCredDistribution,
  unAuditPath: CREDIT_PATHS.rejectCredDistribution,
  auditActions: PASS_REJECT,
  queryKey: creditKeys.all,
};

/** 额度变更 (change of a line's limit or end date). */
export const CHANGE_DOC: DocKind = {
  docType: 'credChange',
  menuCode: 'ft-credit-chg',
  codeParam: 'bizCode',
  routes: { list: CREDIT_ROUTES.chgList, view: CREDIT_ROUTES.chgView, editor: CREDIT_ROUTES.chgEditor },
  listPath: CREDIT_PATHS.credChangeList,
  auditPath: CREDIT_PATHS.passCredChange,
  unAuditPath: CREDIT_PATHS.rejectCredChange,
  auditActions: PASS_REJECT,
  queryKey: creditKeys.all,
};
