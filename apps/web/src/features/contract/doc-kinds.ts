import { CONTRACT_PATHS, HANDOVER_PATHS } from '@portal/contract/contract';
import type { DocKind } from '../../shared/workflow/doc-kind';
import { CONTRACT_ROUTES, contractKeys } from './api';

/** 合同变更 (a change of an approved contract). */
export const CHANGE_DOC: DocKind = {
  docType: 'contractChange',
  menuCode: 'ft-contract-chg',
  codeParam: 'bizCode',
  routes: { list: CONTRACT_ROUTES.chgList, view: CONTRACT_ROUTES.chgView, editor: CONTRACT_ROUTES.chgEditor },
  listPath: CONTRACT_PATHS.changeList,
  auditPath: CONTRACT_PATHS.changeAudit,
  unAuditPath: CONTRACT_PATHS.changeUnAudit,
  queryKey: contractKeys.all,
};

/** 资料交接单 (the handover of a contract's originals). */
export const HANDOVER_DOC: DocKind = {
  docType: 'handover',
  menuCode: 'ft-contract-handover',
  codeParam: 'bizCode',
  routes: { list: CONTRACT_ROUTES.hoList, view: CONTRACT_ROUTES.hoView, editor: CONTRACT_ROUTES.hoEditor },
  listPath: HANDOVER_PATHS.list,
  auditPath: HANDOVER_PATHS.audit,
  unAuditPath: HANDOVER_PATHS.unAudit,
  queryKey: contractKeys.all,
};
