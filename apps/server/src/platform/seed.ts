import { eq, notInArray, sql } from 'drizzle-orm';
import { ADMIN_CODE, flattenCatalogue } from '@portal/contract/menus';
import { generatePassword } from '@portal/contract/password';
import { queryRows, type Db } from './db/client';
import { nextCode } from './db/codes';
import { depts, menus, roleMenus, roles, userRoles, users } from './auth/schema';
import { hashPassword } from './auth/password-hash';

export const ADMIN_USER_NAME = 'admin';
export const ADMIN_ROLE_CODE = 'admin';

/** The catalogue is the source of truth: the menu table follows it at every start. */
export async function seedMenus(db: Db): Promise<void> {
  const entries = flattenCatalogue();
  await db.transaction(async (tx) => {
    for (const e of entries) {
      await tx
        .insert(menus)
        .values({ code: e.code, title: e.title, parentCode: e.parentCode, kind: e.kind, sort: e.sort })
        .onConflictDoUpdate({
          target: menus.code,
          set: { title: e.title, parentCode: e.parentCode, kind: e.kind, sort: e.sort },
        });
    }
    const codes = entries.map((e) => e.code);
    await tx.delete(menus).where(notInArray(menus.code, codes));
    // Grants of codes that left the catalogue mean nothing any more.
    await tx.delete(roleMenus).where(notInArray(roleMenus.menuCode, [...codes, ADMIN_CODE]));
  });
}

export interface AdminSeedResult {
  created: boolean;
  password?: string;
  generated?: boolean;
}

/**
 * First start: the root organisation, the administrator role (menu code `admin`: everything)
 * and the `admin` user with ADMIN_PASSWORD or a generated one. Later starts change nothing.
 */
export async function seedAdmin(db: Db, adminPassword: string | undefined): Promise<AdminSeedResult> {
  const existing = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.userName})`, ADMIN_USER_NAME))
    .limit(1);
  if (existing.length > 0) return { created: false };
  const password = adminPassword ?? generatePassword();
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [dept] = await tx
      .insert(depts)
      .values({ bizCode: await nextCode(tx, 'dept'), name: '总部', sort: 0 })
      .returning({ id: depts.id });
    let [role] = await tx
      .select({ id: roles.id })
      .from(roles)
      .where(eq(roles.code, ADMIN_ROLE_CODE))
      .limit(1);
    if (!role) {
      [role] = await tx
        .insert(roles)
        .values({
          bizCode: await nextCode(tx, 'role'),
          name: '超级管理员',
          code: ADMIN_ROLE_CODE,
          description: '拥有全部权限',
          dataScope: 'all',
        })
        .returning({ id: roles.id });
      await tx.insert(roleMenus).values({ roleId: role!.id, menuCode: ADMIN_CODE });
    }
    const [user] = await tx
      .insert(users)
      .values({
        userCode: await nextCode(tx, 'user'),
        userName: ADMIN_USER_NAME,
        realName: '系统管理员',
        deptId: dept!.id,
        passwordHash: hash,
        introduction: '系统管理员',
      })
      .returning({ id: users.id });
    await tx.insert(userRoles).values({ userId: user!.id, roleId: role!.id });
  });
  return { created: true, password, generated: adminPassword === undefined };
}

/** True while no business data exists yet: demo data goes only into a fresh database. */
export async function isFreshDatabase(db: Db): Promise<boolean> {
  const rows = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from users`);
  return (rows[0]?.n ?? 0) <= 1;
}
