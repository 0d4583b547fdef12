import { bigint, bigserial, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { SYSTEM_ACTOR_NAME } from '@portal/contract/audit';
import type { Executor } from './client';

export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: timestamp('at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  actorId: bigint('actor_id', { mode: 'number' }),
  actorName: text('actor_name'),
  entity: text('entity').notNull(),
  entityCode: text('entity_code'),
  action: text('action').notNull(),
  detail: jsonb('detail'),
  requestId: text('request_id'),
  ip: text('ip'),
  /** 'success' for a committed write, 'failure' for a refused or failed one (migrations/0032). */
  result: text('result').notNull().default('success'),
});

/** Who does something: the signed-in user and the request it came in. */
export interface Actor {
  userId: number;
  userName: string;
  requestId?: string;
  /** The client address of the request (shown in 操作日志). */
  ip?: string;
}

export const SYSTEM_ACTOR: Actor = { userId: 0, userName: SYSTEM_ACTOR_NAME };

/**
 * One row per state change (docs/architecture.md "Tables and the audit log"): who, when, what, with
 * before/after where it helps.
 */
export interface AuditEntry {
  entity: string;
  entityCode?: string | null;
  action: string;
  detail?: unknown;
  /** A refused or failed call's row (platform/http/app.ts); every other row is a success. */
  result?: 'success' | 'failure';
}

export async function writeAudit(ex: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  await writeAudits(ex, actor, [entry]);
}

/** Several rows of one actor in one statement, in the order given (their ids follow it). */
export async function writeAudits(ex: Executor, actor: Actor, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await ex.insert(auditLog).values(entries.map((entry) => auditRow(actor, entry)));
}

/** An audit row's values, as every writer of it stores them (the key and `at` are the table's own). */
export function auditRow(actor: Actor, entry: AuditEntry) {
  return {
    actorId: actor.userId || null,
    actorName: actor.userName,
    entity: entry.entity,
    entityCode: entry.entityCode ?? null,
    action: entry.action,
    detail: entry.detail ?? null,
    requestId: actor.requestId ?? null,
    ip: actor.ip ?? null,
    result: entry.result ?? 'success',
  } satisfies Omit<typeof auditLog.$inferInsert, 'id' | 'at'>;
}
