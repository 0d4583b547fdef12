import { sql } from 'drizzle-orm';
import { ALL_CODES, buttonCode, flattenCatalogue, type Action } from '@portal/contract/menus';
import { CLOSE_MENU } from '@portal/contract/voucher';
import { DOC_TYPES, type DocType } from '@portal/contract/workflow';
import { queryRows, type Db } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';

/** Roles the default processes use. Created once; their grants are then the administrators' to edit. */
export const WORKFLOW_ROLES = [
  {
    code: 'biz-manager',
    name: '业务经理',
    description: '录入并提交业务单据',
    actions: ['add', 'save', 'delete', 'print', 'circulate', 'noticeConfirm'],
    // 业务部 enters the customers and their accounts it then raises 客户准入 for (docs/admission.md).
    extra: ['ft-company:add', 'ft-company:update', 'ft-bank:add', 'ft-bank:save'],
  },
  {
    code: 'risk',
    name: '风控',
    description: '复核业务单据',
    actions: ['audit', 'unAudit', 'pass', 'reject', 'print', 'circulate', 'noticeWaive'],
  },
  {
    code: 'gm',
    name: '总经理',
    description: '审批大额业务单据',
    actions: ['audit', 'unAudit', 'pass', 'reject', 'print', 'circulate'],
  },
] as const satisfies readonly {
  code: string;
  name: string;
  description: string;
  actions: readonly Action[];
  /** Buttons of screens that are no document's, with their menus. */
  extra?: readonly string[];
}[];

const REVIEW = { name: '风控复核', roleCode: 'risk', minAmount: null };
const gmAbove = (amount: string) => ({ name: '总经理审批', roleCode: 'gm', minAmount: amount });

/** The default process of every document type (one 风控 review; 总经理 above an amount). */
export const DEFAULT_PROCESSES: Record<
  DocType,
  { procName: string; steps: { name: string; roleCode: string; minAmount: string | null }[] }
> = {
  contract: { procName: '合同审批流程', steps: [REVIEW, gmAbove('5000000.00')] },
  contractChange: { procName: '合同变更审批流程', steps: [REVIEW, gmAbove('5000000.00')] },
  handover: { procName: '资料交接单审批流程', steps: [REVIEW] },
  prepayment: { procName: '前期款审批流程', steps: [REVIEW] },
  income: { procName: '来款审批流程', steps: [REVIEW] },
  paid: { procName: '来款核销审批流程', steps: [REVIEW] },
  paidRed: { procName: '核销冲红审批流程', steps: [REVIEW] },
  loan: { procName: '放款审批流程', steps: [REVIEW] },
  loanRed: { procName: '放款冲红审批流程', steps: [REVIEW] },
  classAdjust: { procName: '分类调整审批流程', steps: [REVIEW] },
  buyback: { procName: '回购审批流程', steps: [REVIEW] },
  buybackSettle: { procName: '回购款核销审批流程', steps: [REVIEW] },
  badDebt: { procName: '核销坏账审批流程', steps: [REVIEW, gmAbove('1000000.00')] },
  credit: { procName: '授信审批流程', steps: [REVIEW, gmAbove('10000000.00')] },
  credDistribution: { procName: '额度分配审批流程', steps: [REVIEW] },
  credChange: { procName: '额度变更审批流程', steps: [REVIEW, gmAbove('10000000.00')] },
  compInfoChange: { procName: '企业信息变更审批流程', steps: [REVIEW] },
  compManagerChange: { procName: '管理员变更审批流程', steps: [REVIEW] },
  custAdmission: { procName: '客户准入审批流程', steps: [REVIEW] },
};

/** Menu codes a role gets: each document screen, the given buttons that exist, and every ancestor menu. */
function grantsFor(actions: readonly Action[], extra: readonly string[] = []): string[] {
  const parents = new Map(flattenCatalogue().map((e) => [e.code, e.parentCode]));
  const out = new Set<string>();
  const add = (code: string) => {
    for (let c: string | null | undefined = code; c; c = parents.get(c)) out.add(c);
  };
  for (const { menuCode } of Object.values(DOC_TYPES)) {
    add(menuCode);
    for (const a of actions) if (ALL_CODES.has(buttonCode(menuCode, a))) add(buttonCode(menuCode, a));
  }
  for (const code of extra) {
    add(code);
    add(code.split(':')[0]!);
  }
  // 月结 is four-eyes too, though not a workflow document: the checkers approve it (finance asks).
  if ((actions as readonly Action[]).includes('audit')) add(buttonCode(CLOSE_MENU, 'audit'));
  return [...out];
}

/**
 * Idempotent: runs at every start. Roles on the first start only (an existing role of that code is
 * kept), a type's default process when it has none, the setting always.
 */
export async function seedWorkflow(db: Db, allowSelfApproval: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    const [settings] = await queryRows<{ seeded: boolean }>(
      tx,
      sql`select roles_seeded_at is not null as seeded from wf_settings where id = 1 for update`,
    );
    for (const r of settings?.seeded ? [] : WORKFLOW_ROLES) {
      const exists = await queryRows<{ id: unknown }>(
        tx,
        sql`select id from roles where code = ${r.code} and deleted_at is null`,
      );
      if (exists[0]) continue;
      const [role] = await queryRows<{ id: unknown }>(
        tx,
        sql`insert into roles (biz_code, name, code, description, data_scope)
            values (${await nextCode(tx, 'role')}, ${r.name}, ${r.code}, ${r.description}, 'all') returning id`,
      );
      // A statement a role and one for the processes, not one a row (≈ 200 at a first start;
      // bench/README.md "Eleventh pass").
      const roleId = Number(role!.id);
      const grants = grantsFor(r.actions, 'extra' in r ? r.extra : []);
      await tx.execute(sql`insert into role_menus (role_id, menu_code)
        values ${sql.join(
          grants.map((code) => sql`(${roleId}, ${code})`),
          sql`, `,
        )} on conflict do nothing`);
    }
    // The types that have no process yet get the default one; a type's existing process is kept.
    const created = await queryRows<{ doc_type: string }>(
      tx,
      sql`insert into wf_process_defs (doc_type, proc_name)
          values ${sql.join(
            Object.entries(DEFAULT_PROCESSES).map(([docType, def]) => sql`(${docType}, ${def.procName})`),
            sql`, `,
          )}
          on conflict (doc_type) do nothing returning doc_type`,
    );
    const steps = created.flatMap(({ doc_type }) =>
      DEFAULT_PROCESSES[doc_type as DocType].steps.map(
        (s, i) => sql`(${doc_type}, ${i + 1}, ${s.name}, ${s.roleCode}, ${s.minAmount}::numeric)`,
      ),
    );
    if (steps.length > 0) {
      await tx.execute(sql`insert into wf_process_steps (doc_type, step_no, name, role_code, min_amount)
        values ${sql.join(steps, sql`, `)}`);
    }
    await tx.execute(sql`update wf_settings set allow_self_approval = ${allowSelfApproval},
      roles_seeded_at = coalesce(roles_seeded_at, now()) where id = 1`);
  });
}
