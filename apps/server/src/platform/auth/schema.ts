import {
  bigint,
  bigserial,
  boolean,
  char,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { auditColumns, softDelete } from '../db/columns';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

export const depts = pgTable('depts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  name: text('name').notNull(),
  parentId: bigint('parent_id', { mode: 'number' }),
  sort: integer('sort').notNull().default(0),
  leader: text('leader'),
  phone: text('phone'),
  state: text('state').notNull().default('enabled'),
  ...auditColumns,
  ...softDelete,
});

export const users = pgTable('users', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userCode: char('user_code', { length: 12 }).notNull(),
  userName: text('user_name').notNull(),
  realName: text('real_name').notNull(),
  phone: text('phone'),
  email: text('email'),
  deptId: bigint('dept_id', { mode: 'number' }),
  state: text('state').notNull().default('enabled'),
  passwordHash: text('password_hash').notNull(),
  mustChangePassword: boolean('must_change_password').notNull().default(false),
  avatar: text('avatar'),
  introduction: text('introduction'),
  ...auditColumns,
  ...softDelete,
});

export const roles = pgTable('roles', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  name: text('name').notNull(),
  code: text('code').notNull(),
  description: text('description'),
  state: text('state').notNull().default('enabled'),
  dataScope: text('data_scope').notNull().default('all'),
  ...auditColumns,
  ...softDelete,
});

export const menus = pgTable('menus', {
  code: text('code').primaryKey(),
  title: text('title').notNull(),
  parentCode: text('parent_code'),
  kind: text('kind').notNull(),
  sort: integer('sort').notNull().default(0),
});

export const roleMenus = pgTable(
  'role_menus',
  {
    roleId: bigint('role_id', { mode: 'number' }).notNull(),
    menuCode: text('menu_code').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuCode] })],
);

/** The organisations of a role's 自定义 data scope (migrations/0044). */
export const roleDepts = pgTable(
  'role_depts',
  {
    roleId: bigint('role_id', { mode: 'number' }).notNull(),
    deptId: bigint('dept_id', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.deptId] })],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    roleId: bigint('role_id', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

export const sessions = pgTable('sessions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tokenHash: text('token_hash').notNull(),
  userId: bigint('user_id', { mode: 'number' }).notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  /** REVOKE_REASONS (platform/auth/sessions.ts); null for a session ended before migration 0036. */
  revokedReason: text('revoked_reason'),
  ip: text('ip'),
  userAgent: text('user_agent'),
});

export const loginAttempts = pgTable('login_attempts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userName: text('user_name').notNull(),
  success: boolean('success').notNull(),
  /** LOGIN_OUTCOMES of @portal/contract/monitor (migration 0024). */
  outcome: text('outcome').notNull(),
  at: ts('at').notNull().defaultNow(),
  ip: text('ip'),
  userAgent: text('user_agent'),
  /** Set by an administrator's unlock: the failure no longer counts. */
  clearedAt: ts('cleared_at'),
});

export const captchas = pgTable('captchas', {
  tokenHash: text('token_hash').primaryKey(),
  answer: text('answer').notNull(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
});

export const nonces = pgTable('nonces', {
  nonce: text('nonce').primaryKey(),
  seenAt: ts('seen_at').notNull().defaultNow(),
});

export const rsaKeys = pgTable('rsa_keys', {
  keyId: text('key_id').primaryKey(),
  publicPem: text('public_pem').notNull(),
  privatePem: text('private_pem').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  retiredAt: ts('retired_at'),
});
