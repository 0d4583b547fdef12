import { z } from 'zod';
import { code, oneOf, optionalCode, optionalOneOf, optionalText, version } from './fields';
import { listSchema } from './list';
import { uscc } from './uscc';

/**
 * Admission (准入). An admission record admits a customer enterprise (`cust`, keyed by
 * compCode) or one of its enterprise users (`user`, keyed by userCode) into an area:
 * `ec` (凭证, /ec), `dw` (山高E融, /dw) or `fc` (银企链, /fc).
 *
 * States: `saved` (保存, a draft) → `open` (开通) → `disabled` (停用) → `open` again (重新开通: the
 * same record is reopened, keeping its roles and role history, rather than a second record being
 * made). There is one record per (area, subject), held by unique indexes in the database.
 * Roles can be set only on an open admission; every change is a row of the role history
 * (企业角色变更, /ec/permit/comp-role-chg).
 *
 * A user admission needs the user's enterprise to hold an open admission in the same area (when it
 * is saved and when it is opened), and the user to be registered (审核通过) and enabled. A
 * customer admission cannot be disabled while users of that enterprise are open in the area.
 *
 * Identifiers that partner sites know:
 * - `compDif` (getCompInfoByDif?compDif=): the enterprise's unified social credit code (统一社会
 *   信用代码, 18 characters), the one identifier every Chinese enterprise has on every site.
 * - `userdif`: an enterprise user's mobile number (unique among live users, comp_users).
 *
 * Paths under `/ft/api/permit/{cust|user}/` (docs/protocol.md "Paths and methods"); the view
 * (`info`), the user picker (`candidates`) and the role-change list and view (`roleChg/…`) are
 * additions in the same style.
 */
const CUST = '/ft/api/permit/cust';
const USER = '/ft/api/permit/user';
export const PERMIT_PATHS = {
  custSave: `${CUST}/info/save`,
  custView: `${CUST}/info`,
  custDict: `${CUST}/list/dict`,
  custList: `${CUST}/list`,
  custOpen: `${CUST}/open`,
  custDisable: `${CUST}/disable`,
  custByDif: `${CUST}/getCompInfoByDif`,
  setCustRole: `${CUST}/setCustRole`,
  getCustRole: `${CUST}/getCustRole`,
  roleChgList: `${CUST}/roleChg/list`,
  roleChgView: `${CUST}/roleChg/view`,
  userSave: `${USER}/info/save`,
  userView: `${USER}/info`,
  userDict: `${USER}/list/dict`,
  userList: `${USER}/list`,
  userOpen: `${USER}/open`,
  userDisable: `${USER}/disable`,
  userCandidates: `${USER}/candidates`,
  setUserRole: `${USER}/setUserRole`,
  getUserRole: `${USER}/getUserRole`,
} as const;

export const PERMIT_AREAS = ['ec', 'dw', 'fc'] as const;
export type PermitArea = (typeof PERMIT_AREAS)[number];
export const PERMIT_AREA_LABELS: Record<PermitArea, string> = { ec: '凭证', dw: '山高E融', fc: '银企链' };

/** The menu code whose buttons allow customer admission calls of an area. */
export const PERMIT_AREA_MENU: Record<PermitArea, string> = {
  ec: 'ec-permit-comp',
  dw: 'dw-permit-comp',
  fc: 'fc-fc',
};
/**
 * The code allowing enterprise-user admission calls of an area: /ec/permit/personal's
 * (ec-permit-personal) and /dw/permit/personal's (dw-permit-personal). 银企链 has no user-admission
 * screen and no code: user admissions in the fc area are refused (`userAreaMenu` is undefined).
 */
export const PERMIT_USER_AREA_MENU: Readonly<Partial<Record<PermitArea, string>>> = {
  ec: 'ec-permit-personal',
  dw: 'dw-permit-personal',
};
/** The areas that have enterprise-user admissions. */
export const PERMIT_USER_AREAS: readonly PermitArea[] = ['ec', 'dw'];
export function userAreaMenu(area: PermitArea): string | undefined {
  return PERMIT_USER_AREA_MENU[area];
}
/** The answer to a user admission in an area without one. */
export const NO_USER_AREA = (area: PermitArea) => `${PERMIT_AREA_LABELS[area]}区域不办理企业用户准入`;
/** The role-change list and its editor/view (企业角色变更). */
export const PERMIT_CHG_MENU = 'ec-permit-chg';

export const PERMIT_SUBJECTS = ['cust', 'user'] as const;
export type PermitSubject = (typeof PERMIT_SUBJECTS)[number];
export const PERMIT_SUBJECT_LABELS: Record<PermitSubject, string> = { cust: '企业客户', user: '企业用户' };

export const PERMIT_STATES = ['saved', 'open', 'disabled'] as const;
export type PermitState = (typeof PERMIT_STATES)[number];
export const PERMIT_STATE_LABELS: Record<PermitState, string> = {
  saved: '已保存',
  open: '已开通',
  disabled: '已停用',
};

/** Customer roles per area (the roles the partner site gives the enterprise). */
export const CUST_ROLE_LABELS: Record<PermitArea, Readonly<Record<string, string>>> = {
  ec: { issuer: '开立方', holder: '持有方', funder: '资金方' },
  dw: { financier: '融资方', core: '核心企业', guarantor: '担保方' },
  fc: { core: '核心企业', member: '链属企业', bank: '合作银行' },
};
/** Enterprise-user roles, the same in every area. */
export const USER_ROLE_LABELS: Readonly<Record<string, string>> = {
  operator: '经办人',
  reviewer: '复核人',
  approver: '审批人',
  admin: '企业管理员',
};

export function roleLabels(subject: PermitSubject, area: PermitArea): Readonly<Record<string, string>> {
  return subject === 'cust' ? CUST_ROLE_LABELS[area] : USER_ROLE_LABELS;
}

/** Role codes of the chosen roles, checked against the area's dictionary on the server. */
export const permitRoles = z
  .array(z.string({ error: '角色取值不正确' }).regex(/^[a-z][A-Za-z]{1,30}$/, '角色取值不正确'), {
    error: '角色不能为空',
  })
  .min(1, '角色不能为空')
  .max(10, '角色不能超过10个')
  .refine((r) => new Set(r).size === r.length, '角色不能重复');

/** The first of `roles` that the area's dictionary does not hold, if any. */
export function unknownRole(
  subject: PermitSubject,
  area: PermitArea,
  roles: readonly string[],
): string | undefined {
  const labels = roleLabels(subject, area);
  return roles.find((r) => !Object.hasOwn(labels, r));
}

const area = oneOf('准入区域', PERMIT_AREAS);

export const custSaveSchema = z
  .object({
    /** Absent: a new admission; present: changes a saved (not yet opened) one. */
    bizCode: optionalCode('准入编号'),
    version: version.optional(),
    area,
    compCode: code('企业客户'),
    roles: permitRoles,
    remark: optionalText('备注', 500, { multiline: true }),
  })
  .superRefine((v, ctx) => {
    if (v.bizCode && v.version === undefined)
      ctx.addIssue({ code: 'custom', path: ['version'], message: '版本号不能为空' });
  });
export type CustSave = z.input<typeof custSaveSchema>;

export const userSaveSchema = z
  .object({
    bizCode: optionalCode('准入编号'),
    version: version.optional(),
    area,
    userCode: code('企业用户'),
    roles: permitRoles,
    remark: optionalText('备注', 500, { multiline: true }),
  })
  .superRefine((v, ctx) => {
    if (v.bizCode && v.version === undefined)
      ctx.addIssue({ code: 'custom', path: ['version'], message: '版本号不能为空' });
  });
export type UserSave = z.input<typeof userSaveSchema>;

/** open / disable: the record by `?bizCode=`, its area in the body (checked against the record). */
export const permitCodeQuery = z.object({ bizCode: code('准入编号') });
export const permitActionSchema = z.object({ area, version });
export type PermitAction = z.input<typeof permitActionSchema>;

export const setRoleSchema = z.object({
  bizCode: code('准入编号'),
  /** The admission's version as shown (docs/protocol.md "Versions and optimistic locking"). */
  version,
  area,
  roles: permitRoles,
  reason: optionalText('变更原因', 200, { multiline: true }),
});
export type SetRole = z.input<typeof setRoleSchema>;

export const compDifQuery = z.object({ compDif: uscc('统一社会信用代码') });
/** The query key is `CompCode`, capital C, as partner sites send it (getCustRole?CompCode=). */
export const getCustRoleQuery = z.object({ CompCode: code('企业编号') });
export const getUserRoleQuery = z.object({ userCode: code('用户编号') });
export const candidatesQuery = z.object({ compCode: code('企业客户') });

export const PERMIT_SORTABLE = ['bizCode', 'createdAt', 'openedAt'] as const;
const commonFilters = {
  area: optionalOneOf('准入区域', PERMIT_AREAS),
  state: optionalOneOf('状态', PERMIT_STATES),
  compCode: optionalCode('企业客户'),
  compName: optionalText('企业名称', 100),
};
export const custListSchema = listSchema(
  { ...commonFilters, usccCode: optionalText('统一社会信用代码', 18, { nfkc: true }) },
  PERMIT_SORTABLE,
);
export const userListSchema = listSchema(
  {
    ...commonFilters,
    userCode: optionalCode('企业用户'),
    userName: optionalText('用户姓名', 50),
    mobile: optionalText('手机号', 11),
  },
  PERMIT_SORTABLE,
);
export type CustListInput = z.input<typeof custListSchema>;
export type UserListInput = z.input<typeof userListSchema>;

export const ROLE_CHG_SORTABLE = ['bizCode', 'createdAt'] as const;
export const roleChgListSchema = listSchema(
  {
    area: optionalOneOf('准入区域', PERMIT_AREAS),
    subject: optionalOneOf('准入对象', PERMIT_SUBJECTS),
    permitCode: optionalCode('准入编号'),
    compName: optionalText('企业名称', 100),
  },
  ROLE_CHG_SORTABLE,
);
export type RoleChgListInput = z.input<typeof roleChgListSchema>;

export interface PermitDictItem {
  code: string;
  label: string;
}

/** list/dict: what the admission screens pick from (items `{ code, label }`). */
export interface PermitDict {
  areas: PermitDictItem[];
  states: PermitDictItem[];
  /** Roles per area (customer roles for cust/list/dict, user roles for user/list/dict). */
  roles: Record<PermitArea, PermitDictItem[]>;
}

export interface PermitRow {
  bizCode: string;
  subject: PermitSubject;
  area: PermitArea;
  compCode: string;
  compName: string;
  usccCode: string;
  /** Enterprise-user admissions only. */
  userCode: string | null;
  userName: string | null;
  mobile: string | null;
  state: PermitState;
  roles: string[];
  remark: string | null;
  openedAt: string | null;
  disabledAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface RoleChangeRow {
  bizCode: string;
  permitCode: string;
  subject: PermitSubject;
  area: PermitArea;
  compCode: string;
  compName: string;
  userCode: string | null;
  userName: string | null;
  /** `open`: the roles taking effect at the first opening; `change`: a later change. */
  kind: 'open' | 'change';
  rolesBefore: string[];
  rolesAfter: string[];
  reason: string | null;
  createdAt: string;
  createdByName: string | null;
}

export interface PermitView extends PermitRow {
  /** The newest role changes (at most 20); `roleChg/list` with `permitCode` pages through all. */
  history: RoleChangeRow[];
  historyTotal: number;
}

export interface RoleChangeView extends RoleChangeRow {
  permit: PermitRow;
}

/** getCustRole / getUserRole: the current roles of a subject in every area it was admitted to. */
export interface CurrentRoles {
  area: PermitArea;
  bizCode: string;
  state: PermitState;
  /** Effective roles: those of an open admission; empty otherwise. */
  roles: string[];
}

/** getCompInfoByDif: the enterprise a partner site names by its USCC code, with its admissions. */
export interface CompInfoByDif {
  compCode: string;
  compName: string;
  usccCode: string;
  compState: 'enabled' | 'disabled';
  permits: CurrentRoles[];
}

export interface UserCandidate {
  userCode: string;
  userName: string;
  mobile: string;
}

export function permitDict(subject: PermitSubject): PermitDict {
  const items = (labels: Readonly<Record<string, string>>) =>
    Object.entries(labels).map(([code, label]) => ({ code, label }));
  return {
    areas: items(PERMIT_AREA_LABELS),
    states: items(PERMIT_STATE_LABELS),
    roles: {
      ec: items(roleLabels(subject, 'ec')),
      dw: items(roleLabels(subject, 'dw')),
      fc: items(roleLabels(subject, 'fc')),
    },
  };
}

/** Role codes as their labels, joined (lists, views). */
export function roleNames(subject: PermitSubject, area: PermitArea, roles: readonly string[]): string {
  const labels = roleLabels(subject, area);
  return roles.map((r) => labels[r] ?? r).join('、');
}

/**
 * `judge`: which list a record was opened from (docs/architecture.md "The web shell"); 返回 goes back there.
 * dwPersonal is the hidden /dw/permit/personal (the dw area's user admissions, code dw-permit-personal).
 */
export const PERMIT_JUDGES = ['comp', 'personal', 'dwComp', 'dwPersonal'] as const;
export type PermitJudge = (typeof PERMIT_JUDGES)[number];
export function judgeOf(subject: PermitSubject, area: PermitArea): PermitJudge | undefined {
  if (area === 'ec') return subject === 'cust' ? 'comp' : 'personal';
  if (area === 'dw') return subject === 'cust' ? 'dwComp' : 'dwPersonal';
  return undefined;
}
