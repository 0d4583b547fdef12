import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { API_PREFIX } from '@portal/contract/api';
import { bizCodeQuery, money, text } from '@portal/contract/fields';
import { button, menu } from '@portal/contract/menus';
import { submitFlag } from '@portal/contract/workflow';
import { queryRows, type Db, type Executor } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { conflict, notFound } from '../../platform/errors';
import type { PortalModule } from '../../platform/module';
import { users } from '../../platform/auth/schema';
import { registerDocument } from './pipeline';
import { WORKFLOW_REGISTRY, type DocHooks } from './registry';

/**
 * A sample document type for the workflow's own tests (and a worked example of declaring a
 * document to the pipeline): table `sample_docs`, routes view, save (with `submit: true`), delete,
 * audit, unAudit. Its onApprove hook writes `sample_effects` and fails for a title containing FAIL;
 * canReject refuses a title containing LOCKED. Never part of the production module list.
 */
/** The sample document type has no organisation: its routes are deliberately unscoped. */
const NO_OWNER = { none: 'a test document type without an owner' };

export const SAMPLE = 'sample';
export const SAMPLE_MENU = 'ft-contract-handover';
const base = '/ft/api/sample';
/** The sample's paths as registered (like a contract package's PATHS). */
const ROUTES = {
  view: `${base}/view`,
  save: `${base}/save`,
  del: `${base}/delete`,
  audit: `${base}/audit`,
  unAudit: `${base}/unAudit`,
} as const;
/** The same paths as a client calls them, under /api. */
export const SAMPLE_PATHS = {
  view: `${API_PREFIX}${ROUTES.view}`,
  save: `${API_PREFIX}${ROUTES.save}`,
  del: `${API_PREFIX}${ROUTES.del}`,
  audit: `${API_PREFIX}${ROUTES.audit}`,
  unAudit: `${API_PREFIX}${ROUTES.unAudit}`,
} as const;

const saveBody = z.object({
  bizCode: z.string().optional(),
  title: text('标题', 60),
  amount: money('金额'),
  ...submitFlag,
});

/** The sample's hooks: onApprove writes an effect (refusing FAIL), onReject one, canReject refuses LOCKED. */
const SAMPLE_HOOKS: DocHooks = {
  async onApprove(tx, doc) {
    const [row] = await queryRows<{ title: string }>(
      tx,
      sql`select title from sample_docs where biz_code = ${doc.code}`,
    );
    await tx.execute(sql`insert into sample_effects (doc_code, kind) values (${doc.code}, 'approved')`);
    if (row?.title.includes('FAIL')) throw conflict('可用额度不足，不能审核');
  },
  async onReject(tx, doc) {
    await tx.execute(sql`insert into sample_effects (doc_code, kind) values (${doc.code}, 'rejected')`);
  },
  async canReject(tx, doc) {
    const [row] = await queryRows<{ title: string }>(
      tx,
      sql`select title from sample_docs where biz_code = ${doc.code}`,
    );
    return row?.title.includes('LOCKED') ? '已有下游单据引用，不能驳回' : null;
  },
};

/**
 * The sample module; `hooks` replace the sample's own one by one (registries.test.ts: two portals
 * register the type with different hooks, and each must run its own).
 */
export function sampleModuleWith(hooks: DocHooks = {}): PortalModule {
  return {
    name: 'sample-doc',
    async seed({ db }) {
      await db.execute(sql`create table if not exists sample_docs (id serial primary key, biz_code text not null unique,
        title text not null, amount numeric(18,2) not null, state text not null default 'draft'
        check (state in ('draft','pending','approved','rejected')),
        created_at timestamptz not null default now(), created_by bigint, updated_at timestamptz not null default now(),
        updated_by bigint, version integer not null default 0, deleted_at timestamptz)`);
      await db.execute(sql`create table if not exists sample_effects (id serial primary key, doc_code text not null,
        kind text not null)`);
      await db.execute(sql`create sequence if not exists code_seq_sample`);
      await db.execute(sql`insert into wf_process_defs (doc_type, proc_name) values (${SAMPLE}, '样例审批流程')
        on conflict do nothing`);
      await db.execute(sql`insert into wf_process_steps (doc_type, step_no, name, role_code, min_amount) values
        (${SAMPLE}, 1, '风控复核', 'risk', null), (${SAMPLE}, 2, '总经理审批', 'gm', 1000000) on conflict do nothing`);
    },
    register({ api, db, registries }) {
      // Through the document pipeline like every business document: its write writes no audit row,
      // the pipeline does (pipeline.test.ts).
      registerDocument(api, db, registries.get(WORKFLOW_REGISTRY), {
        type: SAMPLE,
        label: '样例单据',
        menuCode: SAMPLE_MENU,
        table: 'sample_docs',
        ownerless: NO_OWNER,
        hooks: { ...SAMPLE_HOOKS, ...hooks },
        codeParam: 'bizCode',
        view: { path: ROUTES.view, perm: menu(SAMPLE_MENU), read: findSample },
        // Save (保存 / 保存并提交): create or update a draft/rejected document, then submit when asked.
        save: {
          path: ROUTES.save,
          perm: button(SAMPLE_MENU, 'save'),
          body: saveBody,
          write: async (tx, body, { actor }) => {
            if (body.bizCode) {
              await tx.execute(sql`update sample_docs set title = ${body.title}, amount = ${body.amount}::numeric,
                version = version + 1, updated_at = now(), updated_by = ${actor.userId} where biz_code = ${body.bizCode}`);
              return body.bizCode;
            }
            const code = await nextCode(tx, 'sample');
            await tx.execute(sql`insert into sample_docs (biz_code, title, amount, created_by, updated_by)
              values (${code}, ${body.title}, ${body.amount}::numeric, ${actor.userId}, ${actor.userId})`);
            return { code, detail: { title: body.title, amount: body.amount } };
          },
          find: findSample,
          submission: async (_tx, head) => ({ subject: `样例 ${head.title}`, amount: head.amount }),
        },
        remove: {
          path: ROUTES.del,
          perm: button(SAMPLE_MENU, 'delete'),
          query: bizCodeQuery,
          remove: async (tx, code) => {
            await tx.execute(sql`update sample_docs set deleted_at = now() where biz_code = ${code}`);
          },
        },
        audit: { path: ROUTES.audit, perm: button(SAMPLE_MENU, 'audit') },
        unAudit: { path: ROUTES.unAudit, perm: button(SAMPLE_MENU, 'unAudit') },
      });
    },
  };
}

export const sampleModule = sampleModuleWith();

/** The sample document's head (404 when missing or deleted). */
async function findSample(
  ex: Executor,
  code: string,
): Promise<{ bizCode: string; title: string; amount: string; version: number; state: string }> {
  const [row] = await queryRows<{
    bizCode: string;
    title: string;
    amount: string;
    version: number;
    state: string;
  }>(
    ex,
    sql`select biz_code as "bizCode", title, amount::text as amount, version, state
          from sample_docs where biz_code = ${code} and deleted_at is null`,
  );
  if (!row) throw notFound('样例单据');
  return row;
}

/** Creates an enabled user with the admin's password (TEST_ADMIN_PASSWORD) and the given role codes. */
export async function createUser(
  db: Db,
  userName: string,
  realName: string,
  roleCodes: string[],
): Promise<number> {
  const [admin] = await db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(eq(users.userName, 'admin'));
  const [u] = await queryRows<{ id: unknown }>(
    db,
    sql`insert into users (user_code, user_name, real_name, password_hash)
        values (${await nextCode(db, 'user')}, ${userName}, ${realName}, ${admin!.hash}) returning id`,
  );
  for (const code of roleCodes) {
    await db.execute(
      sql`insert into user_roles (user_id, role_id) select ${Number(u!.id)}, id from roles where code = ${code}`,
    );
  }
  return Number(u!.id);
}
