import { sql } from 'drizzle-orm';
import type { ProcessSave } from '@portal/contract/workflow';
import { queryRows, type Db } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { badInput, conflict, notFound, STALE_VERSION_MSG } from '../../platform/errors';
import type { WorkflowRegistry } from './registry';
import { latestInstance } from './service';
import { currentDocState } from './queries';

/**
 * The workflow's writes outside the approval transitions (those are in service.ts): circulating a
 * document, marking a circulation read, and saving a process definition.
 */

/** Sends the document to colleagues to read (again: marks it unread for them). */
export async function circulate(
  db: Db,
  workflow: WorkflowRegistry,
  input: { type: string; code: string; userIds: number[]; message?: string | undefined; actor: Actor },
): Promise<{ sent: number }> {
  const ids = [...new Set(input.userIds)];
  const cmd = { entity: input.type, action: 'circulate', code: input.code };
  return runCommand(db, input.actor, cmd, async (tx, w) => {
    const found = await queryRows<{ id: unknown }>(
      tx,
      sql`select id from users where id in ${sql`(${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )})`} and state = 'enabled' and deleted_at is null`,
    );
    if (found.length !== ids.length) throw badInput('传阅人不存在或已停用');
    const label = workflow.info(input.type)?.label ?? input.type;
    // A registered type's document must exist (types not wired yet are taken on trust).
    if (workflow.find(input.type) && (await currentDocState(tx, workflow, input.type, input.code)) === null)
      throw notFound(label);
    const inst = await latestInstance(tx, input.type, input.code);
    const subject = inst?.subject ?? `${label} ${input.code}`;
    const me = await queryRows<{ real_name: string }>(
      tx,
      sql`select real_name from users where id = ${input.actor.userId}`,
    );
    const fromName = me[0]?.real_name ?? input.actor.userName;
    for (const id of ids) {
      await tx.execute(sql`insert into wf_circulations (doc_type, doc_code, subject, from_user_id, from_name, to_user_id, message)
        values (${input.type}, ${input.code}, ${subject}, ${input.actor.userId || null}, ${fromName}, ${id}, ${input.message ?? null})
        on conflict (doc_type, doc_code, to_user_id) do update
          set sent_at = now(), read_at = null, subject = excluded.subject, from_user_id = excluded.from_user_id,
              from_name = excluded.from_name, message = excluded.message`);
    }
    await w.audit({ detail: { userIds: ids, message: input.message ?? null } });
    return { sent: ids.length };
  });
}

export async function markRead(db: Db, id: number, actor: Actor): Promise<null> {
  // The circulation's document is the entity: known once the row is read, so the command is opened on it.
  return db.transaction(async (tx) => {
    const rows = await queryRows<{ doc_type: string; doc_code: string }>(
      tx,
      sql`select doc_type, doc_code from wf_circulations where id = ${id} and to_user_id = ${actor.userId} for update`,
    );
    if (!rows[0]) throw notFound('传阅记录');
    const cmd = { entity: rows[0].doc_type, action: 'markRead', code: rows[0].doc_code };
    return runCommand(tx, actor, cmd, async (_tx, w) => {
      await tx.execute(sql`update wf_circulations set read_at = coalesce(read_at, now()) where id = ${id}`);
      await w.audit({ detail: { circulationId: id } });
      return null;
    });
  });
}

/** Replaces one type's process (optimistic lock on the definition's version). In-flight documents keep their snapshot. */
export async function saveDefinition(db: Db, body: ProcessSave, actor: Actor): Promise<{ version: number }> {
  const cmd = { entity: 'processDef', action: 'save', code: body.docType };
  return runCommand(db, actor, cmd, async (tx, w) => {
    for (const [i, s] of body.steps.entries()) {
      const ok = await queryRows<{ ok: boolean }>(
        tx,
        sql`select exists (select 1 from roles where code = ${s.roleCode} and deleted_at is null and state = 'enabled') as ok`,
      );
      if (!ok[0]?.ok) throw badInput(`第${i + 1}步的审批角色不存在或已停用`);
    }
    const current = await queryRows<{ version: number; proc_name: string }>(
      tx,
      sql`select version, proc_name from wf_process_defs where doc_type = ${body.docType} for update`,
    );
    // What the save replaces, for the audit row's before (操作日志 shows a changed step).
    const stepsWere = current[0]
      ? await queryRows<{ name: string; roleCode: string; minAmount: string | null }>(
          tx,
          sql`select name, role_code as "roleCode", min_amount::text as "minAmount"
                from wf_process_steps where doc_type = ${body.docType} order by step_no`,
        )
      : [];
    let version: number;
    if (current[0]) {
      if (current[0].version !== body.version) throw conflict(STALE_VERSION_MSG);
      version = body.version + 1;
      await tx.execute(sql`update wf_process_defs set proc_name = ${body.procName}, version = ${version},
        updated_at = now(), updated_by = ${actor.userId || null} where doc_type = ${body.docType}`);
      await tx.execute(sql`delete from wf_process_steps where doc_type = ${body.docType}`);
    } else {
      if (body.version !== 0) throw conflict(STALE_VERSION_MSG);
      version = 0;
      await tx.execute(sql`insert into wf_process_defs (doc_type, proc_name, created_by, updated_by)
        values (${body.docType}, ${body.procName}, ${actor.userId || null}, ${actor.userId || null})`);
    }
    for (const [i, s] of body.steps.entries()) {
      await tx.execute(sql`insert into wf_process_steps (doc_type, step_no, name, role_code, min_amount)
        values (${body.docType}, ${i + 1}, ${s.name}, ${s.roleCode}, ${s.minAmount ?? null}::numeric)`);
    }
    await w.audit({
      detail: {
        before: current[0] ? { procName: current[0].proc_name, steps: stepsWere } : null,
        after: {
          procName: body.procName,
          steps: body.steps.map((s) => ({
            name: s.name,
            roleCode: s.roleCode,
            minAmount: s.minAmount ?? null,
          })),
        },
      },
    });
    return { version };
  });
}
