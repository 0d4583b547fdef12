import { z } from 'zod';
import { code, optionalCode, optionalDate, optionalOneOf, optionalText, text, version } from './fields';
import { listSchema } from './list';
import { companyAddSchema, fileTokens, type CompRole, type CompType, type Industry } from './company';
import { DOC_STATES, submitFlag, type DocState } from './workflow';

/**
 * CRM change documents (企业信息变更 crm-cor-info and 管理员变更 crm-cor-mg). Their calls follow
 * the style of every call (docs/protocol.md "Paths and methods"): POST, bodies as data, codes as
 * query, under `/admin/portal/crm/`. Both are workflow documents (types compInfoChange and
 * compManagerChange).
 */
const INFO = '/admin/portal/crm/comp/change';
export const COMP_CHANGE_PATHS = {
  list: `${INFO}/list`,
  /** ?compCode: the customer's current values for a new draft (and its open change, if any). */
  init: `${INFO}/init`,
  /** ?bizCode */
  view: `${INFO}/view`,
  save: `${INFO}/save`,
  /** ?bizCode */
  del: `${INFO}/del`,
  audit: `${INFO}/audit`,
  unAudit: `${INFO}/unAudit`,
  /**
   * 企业变更历史: a list call (docs/protocol.md "Lists") over the values approved changes replaced, by compCode.
   */
  history: `${INFO}/history`,
} as const;

const MG = '/admin/portal/crm/comp/manager';
export const COMP_MANAGER_PATHS = {
  list: `${MG}/list`,
  /** ?compCode: the customer and its current administrator. */
  init: `${MG}/init`,
  /**
   * A list call (docs/protocol.md "Lists"): the customer's enterprise users who may become its administrator.
   */
  users: `${MG}/users`,
  /** ?bizCode */
  view: `${MG}/view`,
  save: `${MG}/save`,
  /** ?bizCode */
  del: `${MG}/del`,
  audit: `${MG}/audit`,
  unAudit: `${MG}/unAudit`,
} as const;

// ----- 企业信息变更 -----------------------------------------------------------------------------

/** 认证信息: the fields that identify the enterprise legally. */
export const AT_INFO_FIELDS = [
  'compName',
  'usccCode',
  'legalPerson',
  'regCapital',
  'establishDate',
  'compType',
  'provinceCode',
  'cityCode',
  'areaCode',
  'address',
] as const;
/** 其他信息: the rest of the customer's own fields. */
export const OTHER_INFO_FIELDS = [
  'industry',
  'roles',
  'contactName',
  'contactPhone',
  'contactEmail',
  'remark',
] as const;
export const CHANGE_FIELDS = [...AT_INFO_FIELDS, ...OTHER_INFO_FIELDS] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number];

export const CHANGE_FIELD_LABELS: Record<ChangeField, string> = {
  compName: '企业名称',
  usccCode: '统一社会信用代码',
  legalPerson: '法定代表人',
  regCapital: '注册资本',
  establishDate: '成立日期',
  compType: '企业类型',
  provinceCode: '所在省份',
  cityCode: '所在城市',
  areaCode: '所在区县',
  address: '详细地址',
  industry: '所属行业',
  roles: '客户角色',
  contactName: '联系人',
  contactPhone: '联系电话',
  contactEmail: '联系邮箱',
  remark: '备注',
};

const infoFields = companyAddSchema.pick({
  compName: true,
  usccCode: true,
  legalPerson: true,
  regCapital: true,
  establishDate: true,
  compType: true,
  provinceCode: true,
  cityCode: true,
  areaCode: true,
  address: true,
  industry: true,
  roles: true,
  contactName: true,
  contactPhone: true,
  contactEmail: true,
  remark: true,
}).shape;

/** Save (new when bizCode is absent): the complete new values of the customer's fields. */
export const infoChangeSaveSchema = z.object({
  bizCode: optionalCode('变更单编号'),
  version: version.optional(),
  compCode: code('企业客户'),
  reason: optionalText('变更原因', 500, { multiline: true }),
  ...infoFields,
  ...submitFlag,
});
export type InfoChangeSave = z.input<typeof infoChangeSaveSchema>;

export const infoChangeListSchema = listSchema(
  {
    bizCode: optionalCode('变更单编号'),
    compCode: optionalCode('企业客户'),
    compName: optionalText('企业名称', 100),
    state: optionalOneOf('审核状态', DOC_STATES),
    createdStart: optionalDate('创建日期起'),
    createdEnd: optionalDate('创建日期止'),
  },
  ['bizCode', 'createdAt', 'updatedAt'],
);
export type InfoChangeListInput = z.input<typeof infoChangeListSchema>;

export const changeCompQuery = z.object({ compCode: code('企业客户') });
export const changeCodeQuery = z.object({ bizCode: code('变更单编号') });

/** The customer's values a change document deals in (money as a decimal string). */
export interface CompanyValues {
  compName: string;
  usccCode: string;
  legalPerson: string;
  regCapital: string;
  establishDate: string | null;
  compType: CompType;
  provinceCode: string | null;
  cityCode: string | null;
  areaCode: string | null;
  address: string | null;
  industry: Industry | null;
  roles: CompRole[];
  contactName: string | null;
  contactPhone: string | null;
  contactEmail: string | null;
  remark: string | null;
}

export interface InfoChangeInit {
  compCode: string;
  /** The customer's version: the document remembers it as its base. */
  compVersion: number;
  values: CompanyValues;
  /** A draft or pending change of this customer (at most one), which must be finished first. */
  openBizCode: string | null;
}

export interface InfoChangeRow {
  bizCode: string;
  compCode: string;
  /** The customer's name before the change (snapshot). */
  compName: string;
  /** The name the change proposes. */
  newCompName: string;
  /** The fields that differ between before and after. */
  changedFields: ChangeField[];
  state: DocState;
  createdByName: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface InfoChangeView extends InfoChangeRow {
  version: number;
  reason: string | null;
  /** The customer's version when the change was drafted. */
  baseVersion: number;
  /** The customer's values when the change was drafted (still right after approval). */
  before: CompanyValues;
  after: CompanyValues;
  /** Region names for both sides, for display. */
  beforeRegion: string;
  afterRegion: string;
  approvedAt: string | null;
}

export const HISTORY_CHANGE_TYPES = ['info', 'manager'] as const;
export type HistoryChangeType = (typeof HISTORY_CHANGE_TYPES)[number];
export const HISTORY_CHANGE_TYPE_LABELS: Record<HistoryChangeType, string> = {
  info: '企业信息变更',
  manager: '管理员变更',
};

/** 企业变更历史 of one customer, newest first. */
export const companyHistoryListSchema = listSchema(
  {
    compCode: code('企业客户'),
    changeType: optionalOneOf('变更类型', HISTORY_CHANGE_TYPES),
  },
  ['changedAt'],
);
export type CompanyHistoryListInput = z.input<typeof companyHistoryListSchema>;

export interface CompanyHistoryItem {
  id: number;
  bizCode: string;
  changeType: HistoryChangeType;
  field: string;
  fieldLabel: string;
  oldValue: string | null;
  newValue: string | null;
  changedByName: string | null;
  changedAt: string;
}

/** Display form of a field value, for comparing and showing (arrays joined, null as ''). */
export function changeValueText(v: CompanyValues[ChangeField]): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return [...v].sort().join(',');
  return String(v);
}

/** The fields whose values differ (money compared exactly as decimals). */
export function changedFields(before: CompanyValues, after: CompanyValues): ChangeField[] {
  return CHANGE_FIELDS.filter((f) => {
    if (f === 'regCapital') return !sameMoney(before.regCapital, after.regCapital);
    return changeValueText(before[f]) !== changeValueText(after[f]);
  });
}

function sameMoney(a: string, b: string): boolean {
  const norm = (s: string) => {
    const [i = '0', d = ''] = s.replace(/^-/, '').split('.');
    const int = i.replace(/^0+(?=\d)/, '');
    const dec = d.replace(/0+$/, '');
    const zero = /^0*$/.test(int) && dec === '';
    return zero ? '0' : `${s.startsWith('-') ? '-' : ''}${int}${dec ? `.${dec}` : ''}`;
  };
  return norm(a) === norm(b);
}

// ----- 管理员变更 -------------------------------------------------------------------------------

export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
const ID_CHECK = '10X98765432';

/** GB 11643 居民身份证号码: 17 digits and the check character (0-9 or X). */
export function isValidIdCardNo(v: string): boolean {
  if (!/^\d{17}[\dX]$/.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(v[i]) * ID_WEIGHTS[i]!;
  return ID_CHECK[sum % 11] === v[17];
}

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

export const MANAGER_KINDS = ['existing', 'new'] as const;
export type ManagerKind = (typeof MANAGER_KINDS)[number];
export const MANAGER_KIND_LABELS: Record<ManagerKind, string> = {
  existing: '已有企业用户',
  new: '新增人员',
};

export const managerChangeSaveSchema = z
  .object({
    bizCode: optionalCode('变更单编号'),
    version: version.optional(),
    compCode: code('企业客户'),
    kind: z.enum(MANAGER_KINDS, { error: '新管理员来源取值不正确' }),
    /** kind existing: one of the customer's enterprise users. */
    newUserCode: optionalCode('新管理员'),
    /** kind new: the person to create as an enterprise user on approval. */
    newUserName: optionalText('新管理员姓名', 50),
    newMobile: z.preprocess(
      blank,
      z
        .string({ error: '新管理员手机号格式不正确' })
        .trim()
        .regex(MOBILE_PATTERN, '新管理员手机号格式不正确')
        .optional(),
    ),
    newIdCardNo: z.preprocess(
      (v) => (typeof v === 'string' ? blank(v.trim().toUpperCase()) : blank(v)),
      z
        .string({ error: '新管理员身份证号格式不正确' })
        .refine(isValidIdCardNo, '新管理员身份证号格式不正确')
        .optional(),
    ),
    reason: text('变更原因', 500, { multiline: true }),
    /** 授权委托书: uploaded beforehand (files module); required to submit. */
    fileTokens: fileTokens.optional(),
    ...submitFlag,
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'existing' && !v.newUserCode)
      ctx.addIssue({ code: 'custom', message: '请选择新管理员', path: ['newUserCode'] });
    if (v.kind === 'new') {
      if (!v.newUserName)
        ctx.addIssue({ code: 'custom', message: '新管理员姓名不能为空', path: ['newUserName'] });
      if (!v.newMobile)
        ctx.addIssue({ code: 'custom', message: '新管理员手机号不能为空', path: ['newMobile'] });
      if (!v.newIdCardNo)
        ctx.addIssue({ code: 'custom', message: '新管理员身份证号不能为空', path: ['newIdCardNo'] });
    }
  });
export type ManagerChangeSave = z.input<typeof managerChangeSaveSchema>;

export const managerChangeListSchema = listSchema(
  {
    bizCode: optionalCode('变更单编号'),
    compCode: optionalCode('企业客户'),
    compName: optionalText('企业名称', 100),
    state: optionalOneOf('审核状态', DOC_STATES),
  },
  ['bizCode', 'createdAt', 'updatedAt'],
);
export type ManagerChangeListInput = z.input<typeof managerChangeListSchema>;

export interface CompUserOption {
  userCode: string;
  userName: string;
  mobile: string;
  isManager: boolean;
}

export interface ManagerPerson {
  userCode: string | null;
  userName: string;
  mobile: string;
  idCardNo: string | null;
}

export interface ManagerChangeInit {
  compCode: string;
  compName: string;
  current: ManagerPerson | null;
}

/**
 * The candidates for 新管理员 (live, enabled, registration approved, not the administrator), by
 * substring of name or mobile, one page at a time: the picker searches as the user types.
 */
export const managerCandidateListSchema = listSchema(
  {
    compCode: code('企业客户'),
    keyword: optionalText('姓名或手机号', 50),
  },
  ['userName'],
);
export type ManagerCandidateListInput = z.input<typeof managerCandidateListSchema>;

export interface ManagerChangeRow {
  bizCode: string;
  compCode: string;
  compName: string;
  oldManagerName: string | null;
  newManagerName: string;
  kind: ManagerKind;
  state: DocState;
  createdByName: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ManagerFileInfo {
  fileToken: string;
  originFileName: string;
  size: number;
  mime: string;
}

export interface ManagerChangeView extends ManagerChangeRow {
  version: number;
  reason: string;
  /** The administrator when the change was drafted (snapshot). */
  oldManager: ManagerPerson | null;
  /** The new administrator (userCode once approved for a new person). */
  newManager: ManagerPerson;
  files: ManagerFileInfo[];
  approvedAt: string | null;
}
