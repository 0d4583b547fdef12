import { z } from 'zod';
import {
  code,
  divisionCode,
  money,
  oneOf,
  optionalCode,
  optionalDate,
  optionalOneOf,
  optionalText,
  text,
  version,
} from './fields';
import { listSchema } from './list';
import { uscc } from './uscc';

/**
 * Enterprise customers (企业客户). The product names the base `/admin/portal/crm/company/comp/`
 * and the calls relative to it (`comp/list`, `update`, `view?compCode`, …); the paths are the two
 * joined, exactly as given.
 */
const BASE = '/admin/portal/crm/company/comp';
export const COMPANY_PATHS = {
  list: `${BASE}/comp/list`,
  listExport: `${BASE}/comp/listExport`,
  dict: `${BASE}/comp/list/dict`,
  infoDict: `${BASE}/comp/edit/infoDict`,
  add: `${BASE}/comp/info/add`,
  update: `${BASE}/update`,
  view: `${BASE}/view`,
  del: `${BASE}/del`,
  enable: `${BASE}/info/enable`,
  disable: `${BASE}/info/disable`,
  supCompFind: `${BASE}/supComp/find`,
  checkUscc: `${BASE}/checkCompByUsccCode`,
} as const;

export const COMPANY_EXPORT_FILE_NAME = '企业客户明细表.xlsx';

/** 企业类型 (ownership). */
export const COMP_TYPES = [
  'state',
  'private',
  'foreign',
  'jointVenture',
  'collective',
  'institution',
  'other',
] as const;
export const COMP_TYPE_LABELS: Record<CompType, string> = {
  state: '国有企业',
  private: '民营企业',
  foreign: '外资企业',
  jointVenture: '合资企业',
  collective: '集体企业',
  institution: '事业单位',
  other: '其他',
};
export type CompType = (typeof COMP_TYPES)[number];

/** 客户角色: what the customer is to us in factoring (one customer may hold several). */
export const COMP_ROLES = ['core', 'supplier', 'distributor', 'buyer', 'guarantor', 'factor'] as const;
export const COMP_ROLE_LABELS: Record<CompRole, string> = {
  core: '核心企业',
  supplier: '供应商',
  distributor: '经销商',
  buyer: '买方',
  guarantor: '担保方',
  factor: '保理商',
};
export type CompRole = (typeof COMP_ROLES)[number];

/** 行业: the sections (门类) of GB/T 4754-2017. */
export const INDUSTRIES = [
  'A',
  'B',
  'C',
  'D',
  'E',
  'F',
  'G',
  'H',
  'I',
  'J',
  'K',
  'L',
  'M',
  'N',
  'O',
  'P',
  'Q',
  'R',
  'S',
  'T',
] as const;
export type Industry = (typeof INDUSTRIES)[number];
export const INDUSTRY_LABELS: Record<Industry, string> = {
  A: '农、林、牧、渔业',
  B: '采矿业',
  C: '制造业',
  D: '电力、热力、燃气及水生产和供应业',
  E: '建筑业',
  F: '批发和零售业',
  G: '交通运输、仓储和邮政业',
  H: '住宿和餐饮业',
  I: '信息传输、软件和信息技术服务业',
  J: '金融业',
  K: '房地产业',
  L: '租赁和商务服务业',
  M: '科学研究和技术服务业',
  N: '水利、环境和公共设施管理业',
  O: '居民服务、修理和其他服务业',
  P: '教育',
  Q: '卫生和社会工作',
  R: '文化、体育和娱乐业',
  S: '公共管理、社会保障和社会组织',
  T: '国际组织',
};

export const COMP_STATES = ['enabled', 'disabled'] as const;
export type CompState = (typeof COMP_STATES)[number];
export const COMP_STATE_LABELS: Record<CompState, string> = { enabled: '启用', disabled: '停用' };

/** 客户准入 (docs/admission.md): a customer entered on the screen starts pending until risk admits it. */
export const ADMISSIONS = ['pending', 'admitted'] as const;
export type Admission = (typeof ADMISSIONS)[number];
export const ADMISSION_LABELS: Record<Admission, string> = { pending: '未准入', admitted: '已准入' };

const blankToUndefined = (v: unknown) => (v === null || v === '' ? undefined : v);
const optionalDivision = (label: string) => z.preprocess(blankToUndefined, divisionCode(label).optional());
const PHONE = /^[0-9+\-() ]{5,30}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Attachments uploaded beforehand (files module): their fileTokens. */
export const fileTokens = z
  .array(z.string({ error: '附件标识格式不正确' }).regex(/^[A-Za-z0-9_-]{20,64}$/, '附件标识格式不正确'), {
    error: '附件格式不正确',
  })
  .max(50, '附件不能超过50个');

const companyFields = {
  compName: text('企业名称', 100),
  usccCode: uscc('统一社会信用代码'),
  compType: oneOf('企业类型', COMP_TYPES),
  roles: z
    .array(oneOf('客户角色', COMP_ROLES), { error: '客户角色不能为空' })
    .min(1, '客户角色不能为空')
    .max(COMP_ROLES.length, '客户角色取值不正确')
    .refine((r) => new Set(r).size === r.length, '客户角色不能重复'),
  legalPerson: text('法定代表人', 50),
  regCapital: money('注册资本'),
  establishDate: optionalDate('成立日期'),
  provinceCode: divisionCode('所在省份'),
  cityCode: optionalDivision('所在城市'),
  areaCode: optionalDivision('所在区县'),
  address: optionalText('详细地址', 200),
  industry: z.preprocess(blankToUndefined, oneOf('所属行业', INDUSTRIES).optional()),
  contactName: optionalText('联系人', 50),
  contactPhone: z.preprocess(
    blankToUndefined,
    z.string({ error: '联系电话格式不正确' }).trim().regex(PHONE, '联系电话格式不正确').optional(),
  ),
  contactEmail: z.preprocess(
    blankToUndefined,
    z
      .string({ error: '联系邮箱格式不正确' })
      .trim()
      .max(100, '联系邮箱不能超过100个字符')
      .regex(EMAIL, '联系邮箱格式不正确')
      .optional(),
  ),
  parentCompCode: optionalCode('上级企业'),
  remark: optionalText('备注', 500, { multiline: true }),
  fileTokens: fileTokens.optional(),
};

export const companyAddSchema = z.object(companyFields);

/**
 * SPEC's name for a company customer's code is `companyBizCode` (docs/protocol.md "companyBizCode"):
 * every company record carries it beside `compCode` (the same value), and a request that names the
 * customer by `compCode` may name it by `companyBizCode` instead. Naming it by both, they must agree.
 */
function namedByCompanyBizCode<S extends z.ZodObject<{ compCode: z.ZodType<string> }>>(schema: S) {
  const aliased = (raw: unknown) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
    const r = raw as Record<string, unknown>;
    if (r.companyBizCode === undefined || r.compCode !== undefined) return raw;
    return { ...r, compCode: r.companyBizCode };
  };
  return z.preprocess(
    aliased,
    schema
      .extend({ companyBizCode: optionalCode('企业编号') })
      .refine((v) => v.companyBizCode === undefined || v.companyBizCode === v.compCode, {
        message: '企业编号与companyBizCode不一致',
        path: ['companyBizCode'],
      })
      .transform(({ companyBizCode: _alias, ...rest }) => rest as z.output<S>),
  ) as unknown as z.ZodType<
    z.output<S>,
    z.input<S> | (Omit<z.input<S>, 'compCode'> & { companyBizCode: string })
  >;
}

const companyUpdateFields = z.object({ compCode: code('企业编号'), version, ...companyFields });
export const companyUpdateSchema = namedByCompanyBizCode(companyUpdateFields);
export type CompanyAdd = z.input<typeof companyAddSchema>;
export type CompanyUpdate = z.input<typeof companyUpdateFields>;

export const companyFilters = {
  compName: optionalText('企业名称', 100),
  usccCode: optionalText('统一社会信用代码', 18, { nfkc: true }),
  compType: optionalOneOf('企业类型', COMP_TYPES),
  role: optionalOneOf('客户角色', COMP_ROLES),
  /** A province, city or district: matches customers registered anywhere inside it. */
  regionCode: optionalDivision('所在地区'),
  state: optionalOneOf('状态', COMP_STATES),
  admission: optionalOneOf('准入状态', ADMISSIONS),
  createdStart: optionalDate('创建日期起'),
  createdEnd: optionalDate('创建日期止'),
};
export const COMPANY_SORTABLE = ['compCode', 'compName', 'regCapital', 'establishDate', 'createdAt'] as const;
export const companyListSchema = listSchema(companyFilters, COMPANY_SORTABLE);
export type CompanyListInput = z.input<typeof companyListSchema>;
/** The export takes the list's filters and sort; paging is ignored (every matching row). */
export const companyExportSchema = companyListSchema;

export const compCodeQuery = namedByCompanyBizCode(z.object({ compCode: code('企业编号') }));
export const supCompQuery = z.strictObject({ compName: optionalText('企业名称', 100) });
export const companyDictSchema = z.object({
  role: optionalOneOf('客户角色', COMP_ROLES),
  /** true: disabled customers too (for showing names of old records). */
  all: z.preprocess(blankToUndefined, z.boolean({ error: '参数all格式不正确' }).optional()),
  /** true: admitted customers only (the credit and contract forms' customer pickers). */
  admitted: z.preprocess(blankToUndefined, z.boolean({ error: '参数admitted格式不正确' }).optional()),
});
export const checkUsccSchema = z.object({
  usccCode: uscc('统一社会信用代码'),
  /** The customer being edited, which may keep its own code. */
  compCode: optionalCode('企业编号'),
});

export interface CompanyFileInfo {
  fileToken: string;
  originFileName: string;
  size: number;
  mime: string;
  createdAt: string;
  uploaderName: string;
}

export interface CompanyRow {
  compCode: string;
  /** SPEC's name of the same code (docs/protocol.md "companyBizCode"). */
  companyBizCode: string;
  compName: string;
  usccCode: string;
  compType: CompType;
  roles: CompRole[];
  legalPerson: string;
  regCapital: string;
  establishDate: string | null;
  provinceCode: string | null;
  cityCode: string | null;
  areaCode: string | null;
  /** Province / city / district names joined, for display. */
  regionName: string;
  address: string | null;
  industry: Industry | null;
  contactName: string | null;
  contactPhone: string | null;
  contactEmail: string | null;
  parentCompCode: string | null;
  parentCompName: string | null;
  state: CompState;
  /** 客户准入 (docs/admission.md): only an admitted customer may hold a credit or a contract. */
  admission: Admission;
  /** The approved 客户准入单 that admitted it (null: admitted by the upgrade, or not yet admitted). */
  admissionCode: string | null;
  remark: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface CompanyView extends CompanyRow {
  files: CompanyFileInfo[];
}

export interface DictItem {
  code: string;
  label: string;
}

export interface CompanyInfoDict {
  compTypes: DictItem[];
  roles: DictItem[];
  industries: DictItem[];
  states: DictItem[];
}

export interface UsccCheckResult {
  /** true when another live customer already has the code. */
  exists: boolean;
  compCode?: string;
  compName?: string;
}

const dict = <K extends string>(labels: Record<K, string>, keys: readonly K[]): DictItem[] =>
  keys.map((k) => ({ code: k, label: labels[k] }));

export const COMPANY_INFO_DICT: CompanyInfoDict = {
  compTypes: dict(COMP_TYPE_LABELS, COMP_TYPES),
  roles: dict(COMP_ROLE_LABELS, COMP_ROLES),
  industries: dict(INDUSTRY_LABELS, INDUSTRIES),
  states: dict(COMP_STATE_LABELS, COMP_STATES),
};
