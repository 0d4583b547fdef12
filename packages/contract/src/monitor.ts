import { z } from 'zod';
import { listSchema } from './list';
import { int, optionalDate, optionalOneOf, optionalText, text } from './fields';

/** 系统监控: 操作日志, 登录日志, 在线用户 (docs/operations.md). */
export const MONITOR_PATHS = {
  operLogList: '/monitor/api/operLog/list',
  operLogGet: '/monitor/api/operLog/get',
  /** The list's filters, every matching row (paging ignored), streamed as xlsx. */
  operLogExport: '/monitor/api/operLog/export',
  loginLogExport: '/monitor/api/loginLog/export',
  loginLogList: '/monitor/api/loginLog/list',
  loginLogUnlock: '/monitor/api/loginLog/unlock',
  onlineList: '/monitor/api/online/list',
  onlineForceLogout: '/monitor/api/online/forceLogout',
} as const;

export const MONITOR_MENUS = {
  operLog: 'monitor-operlog',
  loginLog: 'monitor-logininfor',
  online: 'monitor-online',
} as const;

// ---- 操作日志

export const OPER_LOG_EXPORT_FILE_NAME = '操作日志.xlsx';
export const LOGIN_LOG_EXPORT_FILE_NAME = '登录日志.xlsx';

export const OPER_LOG_SORTABLE = ['at'] as const;

/** A row's result: a committed write, or a write refused or failed (its transaction rolled back). */
export const OPER_RESULTS = ['success', 'failure'] as const;
export type OperResult = (typeof OPER_RESULTS)[number];
export const OPER_RESULT_LABELS: Record<OperResult, string> = { success: '成功', failure: '失败' };
export const operLogListSchema = listSchema(
  {
    /** Substring of the user name who wrote. */
    userName: optionalText('操作人', 64),
    /** The audit entity (`bankAccount`, `contract`, …): AUDIT_ENTITY_LABELS' keys. */
    entity: optionalText('模块', 64),
    entityCode: optionalText('单据编号', 64),
    atStart: optionalDate('开始日期'),
    atEnd: optionalDate('结束日期'),
    /** 成功 (a committed write) or 失败 (a refused or failed one). */
    result: optionalOneOf('操作结果', OPER_RESULTS),
  },
  OPER_LOG_SORTABLE,
);
export type OperLogListInput = z.input<typeof operLogListSchema>;
export type OperLogListQuery = z.output<typeof operLogListSchema>;

export interface OperLogView {
  id: number;
  at: string;
  userName: string | null;
  realName: string | null;
  orgName: string | null;
  entity: string;
  entityLabel: string;
  entityCode: string | null;
  action: string;
  actionLabel: string;
  ip: string | null;
  requestId: string | null;
  result: OperResult;
  resultLabel: string;
}

export const operLogGetSchema = z.object({ id: int('日志编号', 1, Number.MAX_SAFE_INTEGER) });

export type { OperLogChange } from './audit';
import type { OperLogChange } from './audit';

export interface OperLogDetail extends OperLogView {
  /** Whether the row recorded the values before the write (else only what was written). */
  hasBefore: boolean;
  changes: OperLogChange[];
}

export { AUDIT_ENTITY_LABELS } from './audit';

// ---- 登录日志

export const LOGIN_OUTCOMES = [
  'success',
  'badPassword',
  'unknownUser',
  'captchaFailed',
  'locked',
  'disabled',
  'failed',
] as const;
export type LoginOutcome = (typeof LOGIN_OUTCOMES)[number];
export const LOGIN_OUTCOME_LABELS: Record<LoginOutcome, string> = {
  success: '成功',
  badPassword: '密码错误',
  unknownUser: '用户不存在',
  captchaFailed: '验证码错误',
  locked: '已锁定',
  disabled: '账号停用',
  failed: '失败',
};

export const LOGIN_LOG_SORTABLE = ['at'] as const;
export const loginLogListSchema = listSchema(
  {
    userName: optionalText('用户名', 64),
    ip: optionalText('IP地址', 64),
    outcome: optionalOneOf('登录结果', LOGIN_OUTCOMES),
    atStart: optionalDate('开始日期'),
    atEnd: optionalDate('结束日期'),
  },
  LOGIN_LOG_SORTABLE,
);
export type LoginLogListInput = z.input<typeof loginLogListSchema>;
export type LoginLogListQuery = z.output<typeof loginLogListSchema>;

export interface LoginLogView {
  id: number;
  at: string;
  userName: string;
  outcome: LoginOutcome;
  ip: string | null;
  userAgent: string | null;
  /** The name's lock in force now: until when (ISO), else null. */
  lockedUntil: string | null;
}

export const loginUnlockSchema = z.object({
  userName: text('用户名', 64),
  reason: text('解锁原因', 200),
});
export type LoginUnlock = z.output<typeof loginUnlockSchema>;

// ---- 在线用户

export const onlineListSchema = listSchema(
  {
    userName: optionalText('用户名', 64),
    ip: optionalText('IP地址', 64),
  },
  ['createdAt', 'lastSeenAt'] as const,
);
export type OnlineListInput = z.input<typeof onlineListSchema>;
export type OnlineListQuery = z.output<typeof onlineListSchema>;

export interface OnlineSessionView {
  sessionId: number;
  userName: string;
  realName: string;
  orgName: string | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string;
  /** The caller's own session: it cannot be forced out from here. */
  current: boolean;
}

export const forceLogoutSchema = z.object({ sessionId: int('会话编号', 1, Number.MAX_SAFE_INTEGER) });
export type ForceLogout = z.input<typeof forceLogoutSchema>;
