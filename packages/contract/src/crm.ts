import { z } from 'zod';
import type { OperLogChange } from './monitor';
import { accountNo, BANK_CODE_PATTERN, CURRENCIES, PURPOSES } from './bank';
import { fileTokens } from './company';
import {
  bool,
  code,
  date,
  int,
  oneOf,
  optionalCode,
  optionalOneOf,
  optionalText,
  text,
  version,
} from './fields';
import { listSchema } from './list';

/**
 * The CRM sub-pages (/crm), in the style of every call (POST, bodies as data, ids as query, the
 * envelope) under the area's prefix (docs/protocol.md "Paths and methods"). The customer itself
 * (基本信息) is served by the company calls, bank accounts by the bank calls.
 */
const B = '/admin/portal/crm';
export const CRM_PATHS = {
  // 企业编辑 / 查看 tabs (crm-cor-cor-e / crm-cor-cor-v)
  employeeList: `${B}/corporation/employee/list`,
  employeeSave: `${B}/corporation/employee/save`,
  employeeEnable: `${B}/corporation/employee/enable`,
  employeeDisable: `${B}/corporation/employee/disable`,
  roleList: `${B}/corporation/role/list`,
  roleSave: `${B}/corporation/role/save`,
  roleDel: `${B}/corporation/role/del`,
  billView: `${B}/corporation/bill/view`,
  billSave: `${B}/corporation/bill/save`,
  desView: `${B}/corporation/des/view`,
  desSave: `${B}/corporation/des/save`,
  addView: `${B}/corporation/corporationAdd/view`,
  addSave: `${B}/corporation/corporationAdd/save`,
  accountList: `${B}/corporation/account/list`,
  accountSave: `${B}/corporation/account/save`,
  accountDel: `${B}/corporation/account/del`,
  accountSetDefault: `${B}/corporation/account/setDefault`,
  fileList: `${B}/corporation/file/list`,
  fileSave: `${B}/corporation/file/save`,
  approvalList: `${B}/corporation/approval/list`,
  // 银行信息管理: the operators of a customer account (employee tab)
  bankUserList: `${B}/bank/user/list`,
  bankUserSave: `${B}/bank/user/save`,
  // 组织架构
  orgTree: `${B}/org/tree`,
  orgAdd: `${B}/org/add`,
  orgUpdate: `${B}/org/update`,
  orgDel: `${B}/org/del`,
  // 企业关系维护
  relationList: `${B}/relation/list`,
  relationSave: `${B}/relation/save`,
  relationDel: `${B}/relation/del`,
  relationGraph: `${B}/relation/graph`,
  // 企业用户 (/crm/frim)
  firmList: `${B}/frim/list`,
  firmView: `${B}/frim/view`,
  firmAudit: `${B}/frim/audit`,
  firmUnAudit: `${B}/frim/unAudit`,
  firmEnable: `${B}/frim/enable`,
  firmDisable: `${B}/frim/disable`,
} as const;

const blank = (v: unknown) => (v === null || v === '' ? undefined : v);

export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;
export const ID_CARD_PATTERN = /^\d{17}[\dX]$/;
export const TAX_NO_PATTERN = /^[0-9A-Z]{15,20}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^[0-9+\-() ]{5,30}$/;

// ---------- 企业用户 (comp_users) ----------

export const REG_STATES = ['pending', 'approved', 'rejected'] as const;
export type RegState = (typeof REG_STATES)[number];
export const REG_STATE_LABELS: Record<RegState, string> = {
  pending: '待审核',
  approved: '已通过',
  rejected: '已驳回',
};
export const USER_STATES = ['enabled', 'disabled'] as const;
export type UserState = (typeof USER_STATES)[number];
export const USER_STATE_LABELS: Record<UserState, string> = { enabled: '启用', disabled: '停用' };

export const compCodeQuery = z.object({ compCode: code('企业编号') });
export const userCodeQuery = z.object({ userCode: code('用户编号') });
export const roleCodeQuery = z.object({ roleCode: code('角色编号') });
export const deptCodeQuery = z.object({ deptCode: code('部门编号') });
export const relationCodeQuery = z.object({ bizCode: code('关系编号') });
export const accountBizCodeQuery = z.object({ bizCode: code('账户编号') });
/** Body of a delete call: the version the client read (409 when stale). */
export const deleteVersionBody = z.object({ version });

export const employeeSaveSchema = z
  .object({
    compCode: code('企业编号'),
    userCode: optionalCode('用户编号'),
    version: version.optional(),
    userName: text('姓名', 50),
    mobile: z
      .string({ error: '手机号不能为空' })
      .trim()
      .min(1, '手机号不能为空')
      .regex(MOBILE_PATTERN, '手机号格式不正确'),
    idCardNo: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim().toUpperCase() || undefined : blank(v)),
      z.string({ error: '身份证号格式不正确' }).regex(ID_CARD_PATTERN, '身份证号格式不正确').optional(),
    ),
    email: z.preprocess(
      blank,
      z
        .string({ error: '邮箱格式不正确' })
        .trim()
        .max(100, '邮箱不能超过100个字符')
        .regex(EMAIL, '邮箱格式不正确')
        .optional(),
    ),
    deptCode: optionalCode('所属部门'),
    post: optionalText('岗位', 50),
    remark: optionalText('备注', 500, { multiline: true }),
  })
  .superRefine((v, ctx) => {
    if (v.userCode && v.version === undefined)
      ctx.addIssue({ code: 'custom', path: ['version'], message: '版本号不能为空' });
  });
export type EmployeeSave = z.input<typeof employeeSaveSchema>;

export const employeeListSchema = listSchema(
  {
    compCode: code('企业编号'),
    userName: optionalText('姓名', 50),
    mobile: optionalText('手机号', 11),
    state: optionalOneOf('状态', USER_STATES),
  },
  ['userCode', 'userName', 'createdAt'] as const,
);

export const firmListSchema = listSchema(
  {
    compCode: optionalCode('所属企业'),
    compName: optionalText('企业名称', 100),
    userName: optionalText('姓名', 50),
    mobile: optionalText('手机号', 11),
    regState: optionalOneOf('审核状态', REG_STATES),
    state: optionalOneOf('状态', USER_STATES),
  },
  ['userCode', 'userName', 'createdAt'] as const,
);

export const firmCheckSchema = z.object({ comment: optionalText('审核意见', 500, { multiline: true }) });

export interface CompUserRow {
  userCode: string;
  compCode: string;
  compName: string;
  userName: string;
  mobile: string;
  idCardNo: string | null;
  email: string | null;
  deptCode: string | null;
  deptName: string | null;
  post: string | null;
  isManager: boolean;
  regState: RegState;
  regComment: string | null;
  state: UserState;
  remark: string | null;
  /** Names of the enterprise roles the user holds. */
  roleNames: string[];
  version: number;
  createdAt: string;
  updatedAt: string;
}

// ---------- 企业角色 ----------

export const roleSaveSchema = z
  .object({
    compCode: code('企业编号'),
    roleCode: optionalCode('角色编号'),
    version: version.optional(),
    roleName: text('角色名称', 30),
    remark: optionalText('备注', 200, { multiline: true }),
    userCodes: z
      .array(code('用户编号'), { error: '角色成员格式不正确' })
      .max(500, '角色成员不能超过500人')
      .refine((a) => new Set(a).size === a.length, '角色成员不能重复')
      .default([]),
  })
  .superRefine((v, ctx) => {
    if (v.roleCode && v.version === undefined)
      ctx.addIssue({ code: 'custom', path: ['version'], message: '版本号不能为空' });
  });
export type RoleSave = z.input<typeof roleSaveSchema>;

export const roleListSchema = listSchema(
  { compCode: code('企业编号'), roleName: optionalText('角色名称', 30) },
  ['roleCode', 'roleName'] as const,
);

export interface CompRoleRow {
  roleCode: string;
  compCode: string;
  roleName: string;
  remark: string | null;
  users: { userCode: string; userName: string }[];
  version: number;
  createdAt: string;
}

// ---------- 开票信息 ----------

export const billSaveSchema = z.object({
  compCode: code('企业编号'),
  /** Absent for the first save; the version read otherwise. */
  version: version.optional(),
  invoiceTitle: text('发票抬头', 100),
  taxNo: z
    .string({ error: '纳税人识别号不能为空' })
    .trim()
    .toUpperCase()
    .min(1, '纳税人识别号不能为空')
    .regex(TAX_NO_PATTERN, '纳税人识别号必须是15到20位数字或大写字母'),
  address: optionalText('注册地址', 200),
  phone: z.preprocess(
    blank,
    z.string({ error: '注册电话格式不正确' }).trim().regex(PHONE, '注册电话格式不正确').optional(),
  ),
  bankName: text('开户银行', 100),
  bankAccountNo: accountNo,
  remark: optionalText('备注', 500, { multiline: true }),
});
export type BillSave = z.input<typeof billSaveSchema>;

export interface BillView {
  compCode: string;
  invoiceTitle: string;
  taxNo: string;
  address: string | null;
  phone: string | null;
  bankName: string;
  bankAccountNo: string;
  remark: string | null;
  version: number;
  updatedAt: string;
}

// ---------- 企业介绍 ----------

export const desSaveSchema = z.object({
  compCode: code('企业编号'),
  version: version.optional(),
  intro: text('企业简介', 5000, { multiline: true }),
  mainBusiness: optionalText('主营业务', 1000, { multiline: true }),
  website: z.preprocess(
    blank,
    z
      .string({ error: '企业网址格式不正确' })
      .trim()
      .max(200, '企业网址不能超过200个字符')
      .regex(/^https?:\/\/\S+$/, '企业网址必须以http://或https://开头')
      .optional(),
  ),
});
export type DesSave = z.input<typeof desSaveSchema>;

export interface DesView {
  compCode: string;
  intro: string;
  mainBusiness: string | null;
  website: string | null;
  version: number;
  updatedAt: string;
}

// ---------- corporationAdd: shareholders and actual controller ----------

export const HOLDER_TYPES = ['person', 'company'] as const;
export type HolderType = (typeof HOLDER_TYPES)[number];
export const HOLDER_TYPE_LABELS: Record<HolderType, string> = { person: '自然人', company: '法人' };

/** A share ratio in percent: 0.0001 to 100, at most 4 decimals. */
export const RATIO_PATTERN = /^\d{1,3}(\.\d{1,4})?$/;
const ratio = z
  .string({ error: '持股比例不能为空' })
  .trim()
  .regex(RATIO_PATTERN, '持股比例必须是最多4位小数的百分比')
  .refine((v) => Number(v) > 0 && Number(v) <= 100, '持股比例必须大于0且不超过100');

export const shareholderSchema = z.object({
  holderName: text('股东名称', 100),
  holderType: oneOf('股东类型', HOLDER_TYPES),
  ratio,
  contribution: z.preprocess(
    blank,
    z
      .string({ error: '认缴出资额格式不正确' })
      .trim()
      .regex(/^\d{1,16}(\.\d{1,2})?$/, '认缴出资额必须是最多两位小数的非负金额')
      .optional(),
  ),
});

export const addSaveSchema = z.object({
  compCode: code('企业编号'),
  version: version.optional(),
  actualController: text('实际控制人', 50),
  controllerIdNo: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() || undefined : blank(v)),
    z
      .string({ error: '实际控制人证件号格式不正确' })
      .max(30, '实际控制人证件号不能超过30个字符')
      .regex(/^[0-9A-Z-]{6,30}$/, '实际控制人证件号格式不正确')
      .optional(),
  ),
  staffCount: z.preprocess(blank, int('员工人数', 0, 10_000_000).optional()),
  businessScope: optionalText('经营范围', 2000, { multiline: true }),
  shareholders: z.array(shareholderSchema, { error: '股东信息格式不正确' }).max(50, '股东不能超过50个'),
});
export type AddSave = z.input<typeof addSaveSchema>;

export interface ShareholderRow {
  holderName: string;
  holderType: HolderType;
  ratio: string;
  contribution: string | null;
}

export interface AddView {
  compCode: string;
  actualController: string;
  controllerIdNo: string | null;
  staffCount: number | null;
  businessScope: string | null;
  shareholders: ShareholderRow[];
  version: number;
  updatedAt: string;
}

// ---------- 账户信息 (the customer's bank accounts, bank module) ----------

export const accountSaveSchema = z
  .object({
    compCode: code('企业编号'),
    bizCode: optionalCode('账户编号'),
    version: version.optional(),
    bankCode: z.string({ error: '开户银行不能为空' }).regex(BANK_CODE_PATTERN, '开户银行不正确'),
    branchName: text('开户网点', 100),
    accountName: text('账户名称', 100),
    accountNo,
    currency: oneOf('币种', CURRENCIES).default('CNY'),
    purpose: oneOf('账户用途', PURPOSES),
    isDefault: bool('是否默认').default(false),
    remark: optionalText('备注', 500, { multiline: true }),
  })
  .superRefine((v, ctx) => {
    if (v.bizCode && v.version === undefined)
      ctx.addIssue({ code: 'custom', path: ['version'], message: '版本号不能为空' });
  });
export type AccountSave = z.input<typeof accountSaveSchema>;

export const accountListSchema = listSchema({ compCode: code('企业编号') }, [
  'bizCode',
  'createdAt',
] as const);
export const accountCodeQuery = z.object({ compCode: code('企业编号'), bizCode: code('账户编号') });

// ---------- 资料文件 ----------

export const fileSaveSchema = z.object({ compCode: code('企业编号'), fileTokens });

// ---------- 审核信息 ----------

export const approvalListSchema = listSchema({ compCode: code('企业编号') }, ['at'] as const);

/** One entry of a customer's history: every recorded change to it and its sub-pages (audit log). */
export interface ApprovalRow {
  id: number;
  at: string;
  actorName: string | null;
  entity: string;
  entityLabel: string;
  action: string;
  actionLabel: string;
  /** The approver's comment of a registration check, if any. */
  comment: string | null;
  /** Whether the row recorded the values before the write (else only what was written). */
  hasBefore: boolean;
  /** The recorded fields in words, with Chinese labels; files by name, never by token. */
  changes: OperLogChange[];
}

// ---------- 银行账户授权操作人 ----------

export const bankUserSaveSchema = z.object({
  bizCode: code('账户编号'),
  userCodes: z
    .array(code('用户编号'), { error: '授权用户格式不正确' })
    .max(200, '授权用户不能超过200人')
    .refine((a) => new Set(a).size === a.length, '授权用户不能重复'),
});

export interface BankUserList {
  bizCode: string;
  ownerCode: string;
  /** The users authorised to operate the account. */
  users: CompUserRow[];
}

// ---------- 组织架构 ----------

export const orgAddSchema = z.object({
  compCode: code('企业编号'),
  parentDeptCode: optionalCode('上级部门'),
  deptName: text('部门名称', 50),
  sort: z.preprocess((v) => (v === undefined || v === null || v === '' ? 0 : v), int('排序', 0, 9999)),
});
export const orgUpdateSchema = z.object({
  deptCode: code('部门编号'),
  version,
  parentDeptCode: optionalCode('上级部门'),
  deptName: text('部门名称', 50),
  sort: z.preprocess((v) => (v === undefined || v === null || v === '' ? 0 : v), int('排序', 0, 9999)),
});
export type OrgAdd = z.input<typeof orgAddSchema>;
export type OrgUpdate = z.input<typeof orgUpdateSchema>;

export interface DeptNode {
  deptCode: string;
  compCode: string;
  parentDeptCode: string | null;
  deptName: string;
  sort: number;
  userCount: number;
  version: number;
  children: DeptNode[];
}

// ---------- 企业关系维护 ----------

/** What the related enterprise is to the core (main) enterprise. */
export const REL_TYPES = ['supplier', 'distributor', 'guarantor'] as const;
export type RelType = (typeof REL_TYPES)[number];
export const REL_TYPE_LABELS: Record<RelType, string> = {
  supplier: '核心企业—供应商',
  distributor: '核心企业—经销商',
  guarantor: '担保关系',
};
export const REL_STATES = ['valid', 'future', 'expired'] as const;
export type RelState = (typeof REL_STATES)[number];
export const REL_STATE_LABELS: Record<RelState, string> = {
  valid: '有效',
  future: '未生效',
  expired: '已失效',
};

export const relationSaveSchema = z
  .object({
    bizCode: optionalCode('关系编号'),
    version: version.optional(),
    relType: oneOf('关系类型', REL_TYPES),
    coreCompCode: code('核心企业'),
    relCompCode: code('关联企业'),
    startDate: date('生效日期'),
    endDate: date('失效日期'),
    remark: optionalText('备注', 500, { multiline: true }),
  })
  .superRefine((v, ctx) => {
    if (v.bizCode && v.version === undefined)
      ctx.addIssue({ code: 'custom', path: ['version'], message: '版本号不能为空' });
    if (v.coreCompCode === v.relCompCode)
      ctx.addIssue({ code: 'custom', path: ['relCompCode'], message: '关联企业不能与核心企业相同' });
    if (v.endDate < v.startDate)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: '失效日期不能早于生效日期' });
  });
export type RelationSave = z.input<typeof relationSaveSchema>;

export const relationListSchema = listSchema(
  {
    compCode: optionalCode('企业'),
    relType: optionalOneOf('关系类型', REL_TYPES),
    relState: optionalOneOf('关系状态', REL_STATES),
  },
  ['bizCode', 'startDate', 'endDate', 'createdAt'] as const,
);
export const relationGraphSchema = z.object({
  compCode: optionalCode('企业'),
  /** true: only the relations valid on the business date. */
  validOnly: z.preprocess(blank, bool('仅有效关系').optional()),
});

export interface RelationRow {
  bizCode: string;
  relType: RelType;
  coreCompCode: string;
  coreCompName: string;
  relCompCode: string;
  relCompName: string;
  startDate: string;
  endDate: string;
  relState: RelState;
  remark: string | null;
  version: number;
  createdAt: string;
}

export interface RelationGraph {
  nodes: { compCode: string; compName: string }[];
  links: { bizCode: string; source: string; target: string; relType: RelType; relState: RelState }[];
  /** true when the graph was cut at its size limit. */
  truncated: boolean;
}
