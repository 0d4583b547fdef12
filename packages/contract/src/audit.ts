import { NOTICE_STATUS_LABELS } from './assignment';
import { formatDateTime, formatMoney } from './format';
import { ACTION_TITLES, flattenCatalogue } from './menus';
import { PARAM_LABELS } from './sysparams';
import { NOTICE_LABELS, NOTICE_STATE_LABELS } from './notices';
import { DOC_STATE_LABELS, DOC_TYPES } from './workflow';
import { DATA_SCOPE_LABELS, STATE_LABELS } from './permission';
import { CURRENCY_LABELS, OWNER_TYPE_LABELS, PURPOSE_LABELS } from './bank';
import { COMP_ROLE_LABELS, COMP_TYPE_LABELS, INDUSTRY_LABELS } from './company';
import { MANAGER_KIND_LABELS } from './crm-change';
import { HOLDER_TYPE_LABELS, REG_STATE_LABELS, REL_STATE_LABELS, REL_TYPE_LABELS } from './crm';
import {
  CHANGE_TYPE_LABELS,
  COLLATERAL_KIND_LABELS,
  DIST_TARGET_LABELS,
  GUARANTEE_MODE_LABELS,
  GUARANTEE_TYPE_LABELS,
  GUARANTOR_KIND_LABELS,
  PRODUCT_LABELS,
  RECOURSE_LABELS,
} from './credit';
import { INCOME_SOURCE_LABELS, PAID_KIND_LABELS } from './accounts';
import { ASSET_CLASS_LABELS } from './classification';
import { DUE_KIND_LABELS } from './contract';
import { PERMIT_AREA_LABELS } from './permit';
import { BIZ_TYPE_LABELS } from './print';
import {
  DAY_COUNT_LABELS,
  FEE_COLLECTION_LABELS,
  INTEREST_COLLECTION_LABELS,
  METHOD_LABELS,
  PENALTY_MODE_LABELS,
} from './plan/rule';

/**
 * The words of 操作日志 and a customer's 审核信息 (docs/operations.md "操作日志 in words"): every
 * audit row's entity, action, detail key and the values a key takes, in Chinese, in one registry
 * built from each module's own label maps. apps/server/src/audit-labels.test.ts walks every audit
 * row the server writes and fails on a key or value without a label here.
 */

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
  prepayment: '前期款',
  income: '来款',
  paid: '核销',
  paidRed: '核销冲红',
  loanRed: '放款冲红',
  classAdjust: '分类调整',
  credit: '授信',
  // The contracts of guarantee of a credit (files filed under the credit's code).
  creditGua: '授信担保合同',
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
  job: '定时任务',
  bankAccountUsers: '账户授权用户',
  compAddInfo: '股东及实际控制人',
  compIntro: '企业介绍',
  compInvoice: '开票信息',
  processDef: '审批流程',
  voucherAccount: '凭证科目',
  bookMonth: '月结',
  collection: '逾期催收',
  assignNotice: '应收账款转让通知',
  debtorLine: '债务人额度',
  debtorMatch: '债务人匹配',
  buyback: '回购单',
  buybackSettle: '回购款核销',
  badDebt: '核销坏账',
  custAdmission: '客户准入单',
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
  pause: '暂停',
  resume: '恢复',
  run: '立即执行',
  activate: '生效',
  apply: '变更生效',
  applyChange: '合同变更生效',
  approve: '审批通过',
  approveStep: '审批通过（本步骤）',
  revoke: '撤销审批',
  attachFiles: '上传附件',
  removeFiles: '移除附件',
  upload: '上传',
  downloadToken: '下载',
  change: '信息变更生效',
  managerChange: '管理员变更生效',
  classAdjust: '分类调整',
  demo: '生成演示数据',
  loan: '放款',
  markRead: '传阅已读',
  post: '记账',
  reopen: '重新开通',
  saveBusinessInfo: '保存业务信息',
  saveDues: '保存应收款项',
  saveFactoring: '保存保理信息',
  saveGuarantees: '保存担保信息',
  releaseGuarantee: '解除担保',
  saveReceivables: '保存应收账款',
  saveScheme: '保存还款计划',
  verifyInvoices: '发票查验',
  addRecord: '登记催收记录',
  saveCase: '设置催收人与下一步行动',
  savePackage: '保存财务软件科目',
  noticeConfirm: '登记债务人确认',
  noticeWaive: '豁免债务人确认',
  noticeWithdraw: '撤销债务人确认或豁免',
  propose: '提交额度调整',
  resolve: '匹配债务人',
  admit: '客户准入',
  askClose: '申请结账',
  askReopen: '申请反结账',
  closeMonth: '结账',
  reopenMonth: '反结账',
  rejectClose: '驳回月结申请',
};

/** Field names of audit details, in words; a field not listed shows as written. */
export const AUDIT_FIELD_LABELS: Record<string, string> = {
  // 定时任务
  cron: 'Cron表达式',
  // 回购
  buyback: '回购单编号',
  buybackDate: '回购日期',
  interest: '利息',
  penaltyAmount: '罚息',
  // 核销坏账
  writeOffDate: '核销日期',
  reserveUsed: '冲减坏账准备',
  lossCharged: '计入信用减值损失',
  // 逾期催收
  contactDate: '联系日期',
  channel: '联系方式',
  result: '催收结果',
  promiseDate: '承诺还款日期',
  promiseAmount: '承诺还款金额',
  assignee: '催收人',
  nextAction: '下一步行动',
  nextActionDate: '下一步行动日期',
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
  // 月结
  requestId: '月结申请编号',
  closeAction: '月结操作',
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
  // 客户准入 (docs/admission.md)
  admissionCode: '准入单编号',
  legalIdNo: '法定代表人身份证号',
  controllerName: '实际控制人/受益所有人',
  bankBizCode: '银行账户',
  // added with the 操作日志 label walk (apps/server/src/audit-labels.test.ts)
  actualController: '实际控制人',
  added: '新增权限',
  removed: '移除权限',
  adjBizCode: '调整单编号',
  allocationOrder: '还款冲抵顺序',
  inAdvanceOrder: '提前还款冲抵顺序',
  amount: '金额',
  annualRate: '年利率',
  area: '区域',
  bankAccountNo: '开户账号',
  bizType: '业务类型',
  businessScope: '经营范围',
  calc: '计息规则',
  change: '变更单编号',
  changeType: '变更类型',
  changed: '变更的字段',
  checked: '检查笔数',
  failed: '失败笔数',
  marked: '标记笔数',
  circulationId: '传阅记录编号',
  code: '编码',
  contribution: '出资额',
  controllerIdNo: '实际控制人证件号',
  coreCompCode: '核心企业',
  relCompCode: '关联企业',
  count: '笔数',
  countBothEnds: '算头又算尾',
  creditId: '授信（内部编号）',
  lineId: '额度（内部编号）',
  currency: '币种',
  custCode: '客户编号',
  custName: '客户名称',
  dataScope: '数据范围',
  dayCount: '计息基准',
  debtorCode: '债务人编号',
  debtorName: '债务人',
  deducted: '扣收金额',
  description: '描述',
  droppedAccounts: '解除授权的账户',
  dueDate: '应收日期',
  effectiveDate: '生效日期',
  startDate: '开始日期',
  endDate: '结束日期',
  from: '原营业日',
  to: '新营业日',
  fromClass: '原分类',
  toClass: '新分类',
  graceDays: '宽限天数',
  guaranteeType: '担保方式',
  guaranteeMode: '担保要求',
  guaranteeId: '担保编号',
  guarantorCode: '担保人编号',
  guarantorName: '担保人',
  guarantorKind: '担保人类型',
  idNo: '身份证号',
  collaterals: '抵质押物',
  collateralKind: '抵质押物类型',
  valuationDate: '评估日期',
  regNo: '登记编号',
  releasedOn: '解除日期',
  holderName: '股东名称',
  holderType: '股东类型',
  interestCollection: '利息收取方式',
  feeCollection: '手续费收取方式',
  feeRate: '手续费率',
  financingRatio: '融资比例',
  invoiceTitle: '发票抬头',
  taxNo: '纳税人识别号',
  items: '明细',
  lines: '明细',
  key: '参数',
  kind: '类型',
  leader: '负责人',
  limitAmount: '额度金额',
  line: '额度编号',
  loanBizCode: '放款单编号',
  loanRedBizCode: '放款冲红单编号',
  message: '附言',
  method: '还款方式',
  mime: '文件类型',
  size: '文件大小（字节）',
  minAmount: '起始金额',
  mode: '计算方式',
  value: '数值',
  newEndDate: '新到期日',
  oldEndDate: '原到期日',
  newLimit: '新额度',
  oldLimit: '原额度',
  newUserName: '新用户名',
  ownerCode: '所属方编号',
  ownerType: '所属方',
  paid: '核销单编号',
  parentCode: '上级组织',
  parentId: '上级组织（内部编号）',
  penalty: '罚息规则',
  post: '岗位',
  principal: '本金',
  procName: '流程名称',
  product: '产品',
  purpose: '用途',
  ratio: '持股比例',
  rebased: '重算还款计划',
  recourse: '追索权',
  released: '释放额度',
  reoccupied: '恢复占用额度',
  returned: '退回金额',
  round: '审批轮次',
  serialNo: '流水号',
  settled: '已结清',
  source: '来源',
  staffCount: '员工人数',
  step: '审批步骤',
  stepName: '步骤名称',
  steps: '审批步骤',
  subject: '摘要',
  targetType: '分配对象',
  total: '合计',
  totalInterest: '利息合计',
  userIds: '接收人（用户编号）',
  wasDefault: '原为默认账户',
  yonyouCode: '用友科目编码',
  kingdeeCode: '金蝶科目编码',
  aux: '辅助核算',
  // 应收账款转让通知
  confirmDate: '确认日期',
  confirmedBy: '确认人',
  withdrawn: '撤销的',
  linked: '匹配行数',
  // 期初导入
  contractNo: '合同号',
  loanDate: '放款日',
  loanAmount: '实际放款金额',
  principalOutstanding: '本金余额',
  principalPaid: '已还本金',
  interestPaid: '已还利息',
  feePaid: '已还费用',
};

/** Who a write the server makes itself (demo data, day-end) is recorded as. */
export const SYSTEM_ACTOR_NAME = '系统';

/** Values a detail key takes, in words (the module's own label maps). */
export const AUDIT_VALUE_LABELS: Record<string, Readonly<Record<string, string>>> = {
  state: { ...DOC_STATE_LABELS, ...NOTICE_STATE_LABELS, ...REL_STATE_LABELS, ...STATE_LABELS },
  dataScope: DATA_SCOPE_LABELS,
  currency: CURRENCY_LABELS,
  ownerType: OWNER_TYPE_LABELS,
  purpose: PURPOSE_LABELS,
  compType: COMP_TYPE_LABELS,
  industry: INDUSTRY_LABELS,
  roles: COMP_ROLE_LABELS,
  holderType: HOLDER_TYPE_LABELS,
  regState: REG_STATE_LABELS,
  relType: REL_TYPE_LABELS,
  changeType: CHANGE_TYPE_LABELS,
  targetType: DIST_TARGET_LABELS,
  guaranteeType: GUARANTEE_TYPE_LABELS,
  guaranteeMode: GUARANTEE_MODE_LABELS,
  guarantorKind: GUARANTOR_KIND_LABELS,
  collateralKind: COLLATERAL_KIND_LABELS,
  product: PRODUCT_LABELS,
  recourse: RECOURSE_LABELS,
  source: INCOME_SOURCE_LABELS,
  kind: { ...DUE_KIND_LABELS, ...PAID_KIND_LABELS, ...MANAGER_KIND_LABELS },
  fromClass: ASSET_CLASS_LABELS,
  toClass: ASSET_CLASS_LABELS,
  area: PERMIT_AREA_LABELS,
  bizType: BIZ_TYPE_LABELS,
  method: METHOD_LABELS,
  dayCount: DAY_COUNT_LABELS,
  interestCollection: INTEREST_COLLECTION_LABELS,
  feeCollection: FEE_COLLECTION_LABELS,
  mode: PENALTY_MODE_LABELS,
  withdrawn: NOTICE_STATUS_LABELS,
};

/** Keys that are never shown: file tokens, secrets and checksums (a download token grants the file). */
export const AUDIT_HIDDEN_FIELD = /token|password|secret|hash|sha256/i;

/** Keys whose values are menu or button codes (`ft-income:add`): shown by their titles. */
const MENU_CODE_FIELDS = new Set(['added', 'removed', 'menuCodes']);

/**
 * Keys whose values are money: shown as on every screen (1,920,000.00), never as the raw decimal
 * the audit row keeps.
 */
const MONEY_FIELD =
  /(amount|Amount|^principal|^interest|^fee$|^occupied|^regCapital|Limit$|^limit|^deducted|^released|^reoccupied|^returned|^total|^contribution)$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A code's first entry in the catalogue: its screen (a hidden editor of the same code comes after). */
const MENU_TITLES = new Map<string, string>();
for (const e of flattenCatalogue()) if (!MENU_TITLES.has(e.code)) MENU_TITLES.set(e.code, e.title);
const actionTitle = (a: string): string | undefined =>
  Object.hasOwn(ACTION_TITLES, a) ? ACTION_TITLES[a as keyof typeof ACTION_TITLES] : undefined;

/** A menu code (`ft-income`) or button code (`ft-income:add`) by its titles: 「来款登记·新增」. */
export function menuCodeTitle(code: string): string {
  const cut = code.lastIndexOf(':');
  if (cut < 0) return MENU_TITLES.get(code) ?? code;
  const menu = MENU_TITLES.get(code.slice(0, cut)) ?? code.slice(0, cut);
  return `${menu}·${actionTitle(code.slice(cut + 1)) ?? code.slice(cut + 1)}`;
}

export const auditEntityLabel = (entity: string): string | undefined =>
  AUDIT_ENTITY_LABELS[entity] ??
  (Object.hasOwn(DOC_TYPES, entity) ? DOC_TYPES[entity as keyof typeof DOC_TYPES].label : undefined) ??
  MENU_TITLES.get(entity);
export const auditActionLabel = (action: string): string | undefined =>
  AUDIT_ACTION_LABELS[action] ?? actionTitle(action);
export const auditFieldLabel = (field: string): string | undefined => AUDIT_FIELD_LABELS[field];

/**
 * Field names that mean something else under one action or entity (the action's words win): a
 * 管理员变更's `from`/`to` are users, not the business dates of 设置营业日; the `phone` of 开票信息
 * is its registered telephone, an organisation's a contact number, a user's a mobile. The stored
 * keys stay as written; only their words differ.
 */
export const AUDIT_SCOPED_FIELD_LABELS: Record<string, Readonly<Record<string, string>>> = {
  managerChange: { from: '原管理员（用户编号）', to: '新管理员（用户编号）' },
  compInvoice: { phone: '注册电话' },
  dept: { phone: '联系电话' },
};

/** Which audit row a field belongs to: its action and entity choose among scoped labels. */
export interface AuditScope {
  action?: string;
  entity?: string;
}

const scopedLabel = (scope: AuditScope, field: string): string | undefined =>
  (scope.action ? AUDIT_SCOPED_FIELD_LABELS[scope.action]?.[field] : undefined) ??
  (scope.entity ? AUDIT_SCOPED_FIELD_LABELS[scope.entity]?.[field] : undefined);
export const auditValueLabel = (field: string, value: string): string | undefined =>
  MENU_CODE_FIELDS.has(field) ? menuCodeTitle(value) : AUDIT_VALUE_LABELS[field]?.[value];

/** One field of an audited write: its label and the value before and after (text, as shown). */
export interface OperLogChange {
  field: string;
  label: string;
  before: string | null;
  after: string | null;
}

/** A detail value as the screens show it: labels for codes, money formatted, 是/否, nested keys named. */
export function auditValueText(v: unknown, field = ''): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? '是' : '否';
  if (typeof v === 'string' || typeof v === 'number') {
    const text = String(v);
    const word = auditValueLabel(field, text);
    if (word) return word;
    if (MONEY_FIELD.test(field) && DECIMAL.test(text)) return formatMoney(text);
    if (typeof v === 'string' && INSTANT.test(text)) return formatDateTime(text);
    return text;
  }
  if (Array.isArray(v)) return v.map((x) => auditValueText(x, field) ?? '').join('、');
  if (typeof v === 'object')
    return Object.entries(v as Record<string, unknown>)
      .filter(([k]) => !AUDIT_HIDDEN_FIELD.test(k))
      .map(([k, x]) => `${auditFieldLabel(k) ?? k}：${auditValueText(x, k) ?? ''}`)
      .join('；');
  return String(v);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The fields of an audit detail in words. With `before` and `after` recorded: every field whose
 * value changed, before and after, plus the row's other keys (which record it names) as context;
 * a `before`/`after` of single values (a state) is the change of `field`. Otherwise what the write
 * recorded, as the values after it.
 */
export function auditChanges(
  detail: unknown,
  field = 'state',
  scope: AuditScope = {},
): { hasBefore: boolean; changes: OperLogChange[] } {
  if (!isRecord(detail)) return { hasBefore: false, changes: [] };
  const row = (f: string, before: unknown, after: unknown): OperLogChange => ({
    field: f,
    label: scopedLabel(scope, f) ?? auditFieldLabel(f) ?? f,
    before: auditValueText(before, f),
    after: auditValueText(after, f),
  });
  const { before, after, ...rest } = detail;
  const context = Object.entries(rest)
    .filter(([f]) => !AUDIT_HIDDEN_FIELD.test(f))
    .map(([f, v]) => row(f, v, v));
  // A save that created its record (`before: null`): what it wrote, as a plain new record reads.
  if (before === null && isRecord(after)) {
    const written = Object.entries(after)
      .filter(([f]) => !AUDIT_HIDDEN_FIELD.test(f))
      .map(([f, v]) => row(f, null, v));
    return { hasBefore: false, changes: [...written, ...context.map((c) => ({ ...c, before: null }))] };
  }
  if (isRecord(before) || isRecord(after)) {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    const changes = fields
      .filter((f) => !AUDIT_HIDDEN_FIELD.test(f))
      .map((f) => row(f, b[f], a[f]))
      .filter((c) => c.before !== c.after);
    return { hasBefore: true, changes: [...changes, ...context] };
  }
  if (before !== undefined || after !== undefined)
    return { hasBefore: true, changes: [row(field, before, after), ...context] };
  return { hasBefore: false, changes: context.map((c) => ({ ...c, before: null })) };
}
