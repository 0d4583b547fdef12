import { z } from 'zod';
import { listSchema } from './list';
import { PARAM_LABELS } from './sysparams';
import { NOTICE_LABELS } from './notices';
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

/** One field of an audited write: its label and the value before and after (text, as shown). */
export interface OperLogChange {
  field: string;
  label: string;
  before: string | null;
  after: string | null;
}

export interface OperLogDetail extends OperLogView {
  /** Whether the row recorded the values before the write (else only what was written). */
  hasBefore: boolean;
  changes: OperLogChange[];
}

/** What the audit rows name (their `entity`), in words. Unknown entities show as written. */
export const AUDIT_ENTITY_LABELS: Record<string, string> = {
  session: '登录会话',
  user: '用户',
  role: '角色',
  dept: '组织',
  company: '客户',
  compUser: '客户用户',
  compRole: '客户角色',
  compDept: '客户部门',
  compRelation: '客户关系',
  bankAccount: '银行账户',
  contract: '合同',
  contractChange: '合同变更',
  handover: '交接单',
  loan: '放款单',
  prepayment: '预付款',
  income: '来款',
  paid: '核销',
  paidRed: '核销冲红',
  loanRed: '放款冲红',
  classAdjust: '分类调整',
  credit: '授信',
  credDistribution: '授信分配',
  credChange: '授信变更',
  permit: '准入',
  permitRoleChange: '角色变更',
  interestRule: '利率规则',
  printTemplate: '打印模板',
  file: '附件',
  loginLock: '登录锁定',
  sysParams: '参数设置',
  notice: '通知公告',
  system: '系统',
};

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  login: '登录',
  logout: '退出登录',
  forceLogout: '强退',
  unlock: '解锁',
  create: '新增',
  add: '新增',
  update: '修改',
  save: '保存',
  delete: '删除',
  remove: '删除',
  audit: '审核',
  unAudit: '驳回',
  submit: '提交',
  pass: '通过',
  reject: '拒绝',
  setDefault: '设为默认',
  changePassword: '修改密码',
  resetPassword: '重置密码',
  status: '启停用',
  enable: '启用',
  disable: '停用',
  rushRed: '冲红',
  purgeLogs: '清理日志',
  setBusinessDate: '设置营业日',
  publish: '发布',
  withdraw: '撤回',
};

/** Field names of audit details, in words; a field not listed shows as written. */
export const AUDIT_FIELD_LABELS: Record<string, string> = {
  accountName: '账户名称',
  accountNo: '账号',
  bankName: '开户行',
  bankCode: '银行',
  branchName: '支行',
  isDefault: '默认账户',
  compCode: '客户编号',
  compName: '客户名称',
  contBizCode: '合同编号',
  bizCode: '编号',
  userName: '用户名',
  realName: '姓名',
  userCodes: '用户',
  deptId: '所属组织（内部编号）',
  roleCodes: '角色',
  roleCode: '角色编号',
  roleName: '角色名称',
  deptCode: '部门编号',
  deptName: '部门名称',
  parentDeptCode: '上级部门',
  sort: '排序',
  name: '名称',
  state: '状态',
  phone: '手机号',
  email: '邮箱',
  remark: '备注',
  comment: '意见',
  reason: '原因',
  ip: 'IP地址',
  financingAmount: '融资金额',
  netAmount: '实付金额',
  valueDate: '起息日',
  lineCode: '额度编号',
  occupied: '占用额度',
  relType: '关系类型',
  regState: '登记状态',
  automatic: '自动设置',
  sessionUser: '被强退用户',
  lockedUntil: '锁定至',
  ...PARAM_LABELS,
  title: NOTICE_LABELS.title,
  content: NOTICE_LABELS.content,
  publishFrom: NOTICE_LABELS.publishFrom,
  publishTo: NOTICE_LABELS.publishTo,
  deptCodes: NOTICE_LABELS.deptCodes,
  retentionDays: '保留天数',
  cutoff: '清理此时刻之前的记录',
  operLogs: '操作日志条数',
  loginLogs: '登录日志条数',
  path: '接口',
  status: '状态码',
  msg: '失败原因',
  // 企业 (CRM) records
  usccCode: '统一社会信用代码',
  compType: '企业类型',
  roles: '角色',
  legalPerson: '法定代表人',
  regCapital: '注册资本',
  establishDate: '成立日期',
  provinceCode: '省份',
  cityCode: '城市',
  areaCode: '区县',
  address: '详细地址',
  industry: '所属行业',
  contactName: '联系人',
  contactPhone: '联系电话',
  contactEmail: '联系邮箱',
  parentCompCode: '上级企业',
  files: '资料文件',
  mobile: '手机号',
  userCode: '用户编号',
  mainBusiness: '主营业务',
  website: '企业网站',
  introLength: '企业介绍字数',
  shareholders: '股东',
  idCardNo: '身份证号',
};

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
