import { z } from 'zod';
import { code, int, oneOf, optionalCode, optionalText, text, version } from './fields';
import { listSchema } from './list';

/** Paths (docs/protocol.md "Paths and methods"): roles, organisations, staff users and the password reset. */
export const PERMISSION_PATHS = {
  roleList: '/permission/api/role/list',
  roleMenuTree: '/permission/api/role/menuTree',
  roleCfgSave: '/permission/api/role/cfgSave',
  roleGet: '/permission/api/role/get',
  roleAdd: '/permission/api/role/add',
  roleUpdate: '/permission/api/role/update',
  roleRemove: '/permission/api/role/remove',
  roleUserTree: '/permission/api/role/userTree',
  roleDict: '/permission/api/role/dict',
  orgTree: '/permission/api/org/tree',
  orgAdd: '/permission/api/org/add',
  orgUpdate: '/permission/api/org/update',
  orgGet: '/permission/api/org/get',
  orgRemove: '/permission/api/org/remove',
  userList: '/permission/api/user/list',
  /** The user list's filters and sort as a streamed xlsx (every matching row). */
  userListExport: '/permission/api/user/listExport',
  userAdd: '/permission/api/user/add',
  userUpdate: '/permission/api/user/update',
  userGet: '/permission/api/user/get',
  userRemove: '/permission/api/user/remove',
  userStatus: '/permission/api/user/status',
  userDict: '/permission/api/user/dict',
  passwordReset: '/admin/portal/api/company/custAccount/passWord/update',
} as const;

export const STATES = ['enabled', 'disabled'] as const;
export type State = (typeof STATES)[number];
export const STATE_LABELS: Record<State, string> = { enabled: '启用', disabled: '停用' };

/**
 * A role's data scope (SECURITY.md "Row scope"): all data, its holder's organisation and below, its
 * holder's organisation alone, the organisations chosen on the role (`deptCodes`), or the holder's
 * own records. A holder always sees their own records; several roles add up.
 */
export const DATA_SCOPES = ['all', 'dept', 'deptOnly', 'custom', 'self'] as const;
export type DataScope = (typeof DATA_SCOPES)[number];
export const DATA_SCOPE_LABELS: Record<DataScope, string> = {
  all: '全部数据',
  dept: '本组织及下级',
  deptOnly: '本部门',
  custom: '自定义',
  self: '仅本人数据',
};

/** The built-in administrator role (menu code `admin`: everything) and user, seeded at first start. */
export const ADMIN_ROLE_CODE = 'admin';
export const ADMIN_USER_NAME = 'admin';

export const PERMISSION_MESSAGES = {
  orgCycle: '不能将组织移动到其自身或其下级组织之下',
  orgHasChildren: '该组织下还有下级组织，不能删除',
  orgHasUsers: '该组织下还有用户，不能删除',
  orgParentMissing: '上级组织不存在',
  orgMissing: '所属组织不存在',
  roleMissing: '角色不存在',
  roleCodeTaken: '角色编码已存在',
  roleInUse: '该角色已分配给用户，不能删除',
  adminRoleFixed: '超级管理员角色拥有全部权限，不能修改其编码、状态、数据范围或权限配置',
  adminRoleRemove: '超级管理员角色不能删除',
  menuCodeUnknown: '菜单编码不存在',
  userNameTaken: '用户名已存在',
  selfDisable: '不能停用当前登录的用户',
  selfRemove: '不能删除当前登录的用户',
  selfReset: '不能重置自己的密码，请使用“修改密码”',
  lastAdmin: '至少需要保留一个启用的超级管理员用户',
  grantBeyondOwn: '权限配置不能超出本人拥有的权限',
  scopeBeyondOwn: '数据范围不能大于本人的数据范围',
  ownRoleFixed: '不能修改本人所属角色的配置',
  roleBeyondOwn: '不能分配权限或数据范围超出本人的角色',
  /** The user or role a call acts on grants more than the caller holds (SECURITY.md "No escalation"). */
  userWider: '不能操作权限或数据范围超出本人的用户',
  roleWider: '不能修改权限或数据范围超出本人的角色',
  customDeptsMissing: '自定义数据范围请至少选择一个组织',
  scopeDeptMissing: '数据范围组织不存在',
} as const;

const blank = (v: unknown) => (v === null || v === '' ? undefined : v);
const optionalEnum = <const T extends readonly [string, ...string[]]>(label: string, values: T) =>
  z.preprocess(blank, oneOf(label, values).optional());

export const PHONE_PATTERN = /^[0-9+\-() ]{5,30}$/;
const phone = (label: string) =>
  z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    z
      .string({ error: `${label}格式不正确` })
      .trim()
      .regex(PHONE_PATTERN, `${label}格式不正确`)
      .optional(),
  );

// ---------------------------------------------------------------- roles

export const ROLE_CODE_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{1,49}$/;
const roleCode = z
  .string({
    error: (i) =>
      i.input === undefined || i.input === null || i.input === '' ? '角色编码不能为空' : '角色编码格式不正确',
  })
  .trim()
  .min(1, '角色编码不能为空')
  .regex(ROLE_CODE_PATTERN, '角色编码必须以字母开头，由2到50位字母、数字、下划线或连字符组成');

const roleFields = {
  name: text('角色名称', 50),
  code: roleCode,
  description: optionalText('角色描述', 500, { multiline: true }),
  state: oneOf('状态', STATES).default('enabled'),
  dataScope: oneOf('数据范围', DATA_SCOPES).default('all'),
  /** The organisations of the 自定义 data scope (ignored for the other scopes). */
  deptCodes: z
    .array(code('数据范围组织'), { error: '数据范围组织格式不正确' })
    .max(500, '数据范围组织过多')
    .default([]),
};
/** 自定义 needs at least one organisation; the other scopes keep none. */
const customDepts = <T extends { dataScope: DataScope; deptCodes: string[] }>(v: T, ctx: z.RefinementCtx) => {
  if (v.dataScope === 'custom' && v.deptCodes.length === 0)
    ctx.addIssue({ code: 'custom', path: ['deptCodes'], message: PERMISSION_MESSAGES.customDeptsMissing });
};

export const roleAddSchema = z.object(roleFields).superRefine(customDepts);
export type RoleAdd = z.input<typeof roleAddSchema>;
export const roleUpdateSchema = z
  .object({ bizCode: code('角色编号'), version, ...roleFields })
  .superRefine(customDepts);
export type RoleUpdate = z.input<typeof roleUpdateSchema>;

export const ROLE_SORTABLE = ['bizCode', 'name', 'code', 'createdAt'] as const;
export const roleListSchema = listSchema(
  {
    name: optionalText('角色名称', 50),
    code: optionalText('角色编码', 50),
    state: optionalEnum('状态', STATES),
  },
  ROLE_SORTABLE,
);
export type RoleListInput = z.input<typeof roleListSchema>;

/** Save role config: the menu and button codes the role grants (ancestors are added by the server). */
export const roleCfgSaveSchema = z.object({
  bizCode: code('角色编号'),
  version,
  menuCodes: z.array(text('菜单编码', 100), { error: '菜单编码格式不正确' }).max(5000, '菜单编码过多'),
});
export type RoleCfgSave = z.input<typeof roleCfgSaveSchema>;

export const roleQuery = z.object({ bizCode: code('角色编号') });

export interface RoleView {
  bizCode: string;
  name: string;
  code: string;
  description: string | null;
  state: State;
  dataScope: DataScope;
  /** The organisations of the 自定义 scope (empty for the other scopes). */
  deptCodes: string[];
  /** The seeded administrator role: everything, not editable beyond name and description. */
  builtIn: boolean;
  userCount: number;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface RoleDetail extends RoleView {
  /** Menu and button codes granted (`admin` for the administrator role). */
  menuCodes: string[];
}

export interface MenuTreeNode {
  code: string;
  title: string;
  kind: 'menu' | 'button';
  children?: MenuTreeNode[];
}

export interface DictItem {
  code: string;
  label: string;
}

/** The organisation tree with users as leaves (choosing people). */
export interface UserTreeNode {
  /** `dept:<deptBizCode>` or `user:<userCode>`: unique over the tree. */
  key: string;
  type: 'dept' | 'user';
  code: string;
  title: string;
  children?: UserTreeNode[];
}

// ---------------------------------------------------------------- organisations

const orgFields = {
  name: text('组织名称', 50),
  parentCode: optionalCode('上级组织'),
  sort: z.preprocess((v) => (v === undefined || v === null || v === '' ? 0 : v), int('排序', 0, 99999)),
  leader: optionalText('负责人', 50),
  phone: phone('联系电话'),
  state: oneOf('状态', STATES).default('enabled'),
};
export const orgAddSchema = z.object(orgFields);
export type OrgAdd = z.input<typeof orgAddSchema>;
export const orgUpdateSchema = z.object({ deptBizCode: code('组织编号'), version, ...orgFields });
export type OrgUpdate = z.input<typeof orgUpdateSchema>;
export const orgQuery = z.object({ bizCode: code('组织编号') });

export interface OrgView {
  deptBizCode: string;
  name: string;
  parentCode: string | null;
  parentName: string | null;
  sort: number;
  leader: string | null;
  phone: string | null;
  state: State;
  /** Live users directly in this organisation. */
  userCount: number;
  version: number;
}

export interface OrgNode extends OrgView {
  children: OrgNode[];
}

// ---------------------------------------------------------------- users

export const USER_NAME_PATTERN = /^[A-Za-z0-9_.@-]{2,64}$/;
const userName = z
  .string({
    error: (i) =>
      i.input === undefined || i.input === null || i.input === '' ? '用户名不能为空' : '用户名格式不正确',
  })
  .trim()
  .min(1, '用户名不能为空')
  .regex(USER_NAME_PATTERN, '用户名必须是2到64位字母、数字或 _ . @ -');

const userFields = {
  userName,
  realName: text('姓名', 50),
  phone: phone('手机号'),
  email: z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    z
      .string({ error: '邮箱格式不正确' })
      .trim()
      .max(100, '邮箱不能超过100个字符')
      .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, '邮箱格式不正确')
      .optional(),
  ),
  deptCode: code('所属组织'),
  roleCodes: z.array(code('角色'), { error: '角色格式不正确' }).max(50, '角色不能超过50个').default([]),
  state: oneOf('状态', STATES).default('enabled'),
};
export const userAddSchema = z.object(userFields);
export type UserAdd = z.input<typeof userAddSchema>;
export const userUpdateSchema = z.object({ userCode: code('用户编号'), version, ...userFields });
export type UserUpdate = z.input<typeof userUpdateSchema>;
export const userStatusSchema = z.object({
  userCode: code('用户编号'),
  version,
  state: oneOf('状态', STATES),
});
export type UserStatus = z.input<typeof userStatusSchema>;
export const userQuery = z.object({ bizCode: code('用户编号') });
export const passwordResetSchema = z.object({ userCode: code('用户编号') });
export type PasswordReset = z.input<typeof passwordResetSchema>;

export const USER_EXPORT_FILE_NAME = '用户列表.xlsx';

export const USER_SORTABLE = ['userCode', 'userName', 'realName', 'createdAt'] as const;
export const userListSchema = listSchema(
  {
    /** The organisation and everything below it. */
    deptCode: optionalCode('所属组织'),
    /** Substring of the user name or the real name. */
    name: optionalText('姓名', 64),
    state: optionalEnum('状态', STATES),
    roleCode: optionalCode('角色'),
  },
  USER_SORTABLE,
);
export type UserListInput = z.input<typeof userListSchema>;

export interface UserView {
  userCode: string;
  userName: string;
  realName: string;
  phone: string | null;
  email: string | null;
  deptCode: string | null;
  deptName: string | null;
  roles: DictItem[];
  state: State;
  mustChangePassword: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** Answer of add and of the password reset: the temporary password, shown once. */
export interface TemporaryPassword {
  userCode: string;
  password: string;
}
