import { sql } from 'drizzle-orm';
import {
  dataUrlBytes,
  PARAM_LABELS,
  type ParamKey,
  type SysParams,
  type SysParamsView,
} from '@portal/contract/sysparams';
import { advisoryXactLock } from '../../platform/db/advisory';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { queryRows, type Db, type Executor } from '../../platform/db/client';
import type { LiveParams } from '../../platform/params';

const KEYS = Object.keys(PARAM_LABELS) as ParamKey[];

export async function viewParams(ex: Executor, params: LiveParams): Promise<SysParamsView> {
  const [last] = await queryRows<{ updated_at: string; real_name: string | null }>(
    ex,
    sql`select p.updated_at, u.real_name from system_params p left join users u on u.id = p.updated_by
         where p.updated_by is not null order by p.updated_at desc limit 1`,
  );
  return {
    params: params.current,
    updatedAt: last ? new Date(last.updated_at).toISOString() : null,
    updatedByName: last?.real_name ?? null,
  };
}

/**
 * The stored values of the settings whose key starts with `prefix` (missing keys are absent), read
 * in the caller's transaction: for a module that must see the settings of its own transaction
 * rather than those this server applies now (voucher/provision.ts).
 */
export async function storedParams(ex: Executor, prefix: string): Promise<Map<string, unknown>> {
  const rows = await queryRows<{ key: string; value: unknown }>(
    ex,
    sql`select key, value from system_params where key like ${`${prefix}%`}`,
  );
  return new Map(rows.map((r) => [r.key, r.value]));
}

/** How a value reads in the audit row: the seal as its size, not its bytes. */
function audited(key: ParamKey, v: SysParams[ParamKey]): string | number | null {
  if (v === undefined || v === null || v === '') return null;
  if (key === 'companySeal' && typeof v === 'string') return `图片（${Math.ceil(dataUrlBytes(v) / 1024)}KB）`;
  return v;
}

/**
 * Saves the settings the screen sends (all of them, validated by sysParamsSchema): the ones that
 * changed are written, with one audit row holding their before and after. The rows' trigger
 * announces the change to every server (migrations/0025); this one applies it before answering.
 */
export async function saveParams(
  db: Db,
  params: LiveParams,
  next: SysParams,
  actor: Actor,
): Promise<SysParamsView> {
  await runCommand(db, actor, { entity: 'sysParams', action: 'save' }, async (tx, w) => {
    await advisoryXactLock(tx, 'params', 'save');
    const current = await params.read(tx);
    const changed = KEYS.filter((k) => (current[k] ?? null) !== (next[k] ?? null));
    if (changed.length === 0) return w.unchanged();
    for (const key of changed) {
      await tx.execute(
        sql`insert into system_params (key, value, updated_at, updated_by)
            values (${key}, ${JSON.stringify(next[key] ?? null)}::jsonb, now(), ${actor.userId || null})
            on conflict (key) do update set value = excluded.value, updated_at = now(), updated_by = excluded.updated_by`,
      );
    }
    await w.audit({
      detail: {
        before: Object.fromEntries(changed.map((k) => [k, audited(k, current[k])])),
        after: Object.fromEntries(changed.map((k) => [k, audited(k, next[k])])),
      },
    });
  });
  await params.load(db);
  return viewParams(db, params);
}
