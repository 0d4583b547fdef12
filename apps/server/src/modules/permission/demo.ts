import { sql } from 'drizzle-orm';
import { ALL_CODES, buttonCode, flattenCatalogue, type Action } from '@portal/contract/menus';
import { generatePassword } from '@portal/contract/password';
import type { SeedContext } from '../../platform/module';
import { queryRows, type Executor } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { hashPassword } from '../../platform/auth/password-hash';

/** Every screen (menus, no buttons): what a read-only role may open. */
function readMenus(): string[] {
  return [...new Set(flattenCatalogue().flatMap((e) => (e.kind === 'menu' ? [e.code] : [])))];
}

/** The money screens' buttons for finance (放款单, 来款, 核销, 冲红, 前期款, 对账导出, 五级分类). */
function financeButtons(): string[] {
  const actions: Action[] = ['add', 'save', 'delete', 'print', 'import', 'rushRed', 'export', 'circulate'];
  const screens = [
    'ft-loan',
    'ft-income',
    'ft-paid',
    'ft-paid-red',
    'ft-pa-mgr',
    'ft-reconcile',
    'ft-ledger-portfolio',
    'ft-ledger-statement',
    // 五级分类: finance raises 分类调整单 and exports the list; 风控 checks them.
    'ft-classification',
    'ft-voucher',
    'ft-voucher-trial',
    'ft-voucher-account',
    // 月结: finance asks to close a month; 风控 approves it (workflow seed).
    'ft-voucher-close',
    // 核销坏账: finance makes it; 风控 (总经理 above 1,000,000.00) approves (workflow seed).
    'ft-bad-debt',
  ];
  // 放款 and 生成前期款 on the contract list open a new 放款单 / 前期款 (finance makes both).
  return [
    ...screens.flatMap((s) => actions.map((a) => buttonCode(s, a)).filter((c) => ALL_CODES.has(c))),
    buttonCode('ft-contract-info', 'isLoan'),
    buttonCode('ft-contract-info', 'isPrevious'),
  ];
}

/** Roles the demo adds next to those the workflow seed made (biz-manager, risk, gm). */
const DEMO_ROLES = [
  {
    code: 'viewer',
    name: '只读',
    description: '查看全部页面，导出会计凭证和试算平衡，不能修改',
    // Who reads the books (复核, 审计) may take them out (docs/accounting.md "Export").
    grants: () => [
      ...readMenus(),
      buttonCode('ft-voucher', 'export'),
      buttonCode('ft-voucher-trial', 'export'),
    ],
  },
  { code: 'finance', name: '财务', description: '录入来款、核销、冲红、前期款', grants: financeButtons },
] as const;

/**
 * The demo office (docs/operations.md "Demo users"): one person per duty, so that a newcomer can
 * walk a contract through four-eyes approval (the maker may not approve their own document, and
 * admin alone cannot approve anything another person has not submitted).
 */
const DEMO_STAFF = [
  {
    userName: 'maker',
    realName: '李经办',
    dept: '业务部',
    duty: '业务部 经办：录入并提交合同、授信等单据',
    roles: ['biz-manager', 'viewer'],
  },
  {
    userName: 'checker',
    realName: '王复核',
    dept: '风控部',
    duty: '风控部 复核：审核单据（风控复核）',
    roles: ['risk', 'viewer'],
  },
  {
    userName: 'manager',
    realName: '赵总',
    dept: '总经办',
    duty: '总经理：大额单据的第二步审批',
    roles: ['gm', 'viewer'],
  },
  {
    userName: 'finance',
    realName: '钱财务',
    dept: '财务部',
    duty: '财务部：来款、核销、冲红、前期款',
    roles: ['finance', 'viewer'],
  },
  {
    userName: 'auditor',
    realName: '孙审计',
    dept: '稽核部',
    duty: '稽核部 审计：只读，查看全部页面',
    roles: ['viewer'],
  },
] as const;

async function roleId(db: Executor, code: string): Promise<number | undefined> {
  const [r] = await queryRows<{ id: string | number }>(
    db,
    sql`select id from roles where code = ${code} and deleted_at is null`,
  );
  return r ? Number(r.id) : undefined;
}

export async function seedDemoStaff({ db, log, addLogin, config }: SeedContext): Promise<void> {
  for (const r of DEMO_ROLES) {
    if (await roleId(db, r.code)) continue;
    const [row] = await queryRows<{ id: string | number }>(
      db,
      sql`insert into roles (biz_code, name, code, description, data_scope)
          values (${await nextCode(db, 'role')}, ${r.name}, ${r.code}, ${r.description}, 'all') returning id`,
    );
    for (const code of r.grants()) {
      await db.execute(
        sql`insert into role_menus (role_id, menu_code) values (${Number(row!.id)}, ${code}) on conflict do nothing`,
      );
    }
  }
  const [root] = await queryRows<{ id: string | number }>(
    db,
    sql`select id from depts where parent_id is null and deleted_at is null order by id limit 1`,
  );
  const deptIds = new Map<string, number>();
  for (const [i, s] of DEMO_STAFF.entries()) {
    const exists = await queryRows(db, sql`select 1 from users where lower(user_name) = ${s.userName}`);
    if (exists.length > 0) continue;
    let deptId = deptIds.get(s.dept);
    if (deptId === undefined) {
      const [d] = await queryRows<{ id: string | number }>(
        db,
        sql`insert into depts (biz_code, name, parent_id, sort)
            values (${await nextCode(db, 'dept')}, ${s.dept}, ${root ? Number(root.id) : null}, ${i + 1}) returning id`,
      );
      deptId = Number(d!.id);
      deptIds.set(s.dept, deptId);
    }
    const password = generatePassword();
    const [u] = await queryRows<{ id: string | number }>(
      db,
      sql`insert into users (user_code, user_name, real_name, dept_id, password_hash, introduction)
          values (${await nextCode(db, 'user')}, ${s.userName}, ${s.realName}, ${deptId},
                  ${await hashPassword(password, config.passwordHashCost)}, ${s.duty}) returning id`,
    );
    for (const code of s.roles) {
      const id = await roleId(db, code);
      if (id === undefined) {
        log(`demo: role ${code} is missing, ${s.userName} goes without it`);
        continue;
      }
      await db.execute(sql`insert into user_roles (user_id, role_id) values (${Number(u!.id)}, ${id})`);
    }
    addLogin?.({ userName: s.userName, realName: s.realName, duty: s.duty, password });
  }
  log('demo: staff of 业务部, 风控部, 总经办, 财务部, 稽核部 added');
}
