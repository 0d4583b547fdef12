import { COMP_CHANGE_PATHS, COMP_MANAGER_PATHS } from '@portal/contract/crm-change';
import {
  CHANGE_ROUTES,
  crmChangeKeys,
  INFO_MENU,
  MANAGER_MENU,
  MANAGER_ROUTES,
  type ChangeRoot,
} from './api';

/**
 * What the 企业信息变更 and 管理员变更 screens differ in: the frames of ChangeFrames.tsx (list,
 * editor save bar, view) take one of these.
 */
export interface ChangeKind {
  /** 企业信息变更 / 管理员变更: the view's title and the noun of the save confirmation. */
  title: string;
  menuCode: string;
  docType: string;
  /** The server list (also the list's query key). */
  listPath: string;
  auditPath: string;
  unAuditPath: string;
  /** Root of the kind's query keys (view, init, history); a save or a decision refreshes it. */
  queryRoot: ChangeRoot;
  /** The list screen, target of 返回. */
  listRoute: string;
}

export const INFO_KIND: ChangeKind = {
  title: '企业信息变更',
  menuCode: INFO_MENU,
  docType: 'compInfoChange',
  listPath: COMP_CHANGE_PATHS.list,
  auditPath: COMP_CHANGE_PATHS.audit,
  unAuditPath: COMP_CHANGE_PATHS.unAudit,
  queryRoot: crmChangeKeys.info,
  listRoute: CHANGE_ROUTES.list,
};

export const MANAGER_KIND: ChangeKind = {
  title: '管理员变更',
  menuCode: MANAGER_MENU,
  docType: 'compManagerChange',
  listPath: COMP_MANAGER_PATHS.list,
  auditPath: COMP_MANAGER_PATHS.audit,
  unAuditPath: COMP_MANAGER_PATHS.unAudit,
  queryRoot: crmChangeKeys.manager,
  listRoute: MANAGER_ROUTES.list,
};
