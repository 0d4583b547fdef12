import { sql, type SQL } from 'drizzle-orm';
import { PgTransaction, type PgColumn, type PgTable, type PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { conflict } from '../errors';
import { auditLog, auditRow, writeAudits, type Actor, type AuditEntry } from './audit';
import { queryRows, type Executor, type Tx } from './client';
import { updateVersioned } from './versioned';

/**
 * One write of one row (or one group of rows under one code), as the audit log names it
 * (docs/architecture.md "The command path"): the entity and action are the audit row's, labelled in
 * `@portal/contract/audit`, so neither may be renamed.
 */
export interface Command {
  entity: string;
  /** Absent where the outcome decides it (created or updated): the write names it in `audit`. */
  action?: string;
  /** The row's code when the caller knows it; a new row's write names its own (`audit({ code })`). */
  code?: string | null;
  /**
   * The version the client read (docs/protocol.md "Versions and optimistic locking"): `update`
   * applies only on it. A call that sent none cannot have read the current row and answers 409.
   */
  version?: number | undefined;
  /** The row's name in the 404 of `update` (`部门不存在`). */
  what?: string;
  /**
   * Unique indexes two racing writes may meet, each with the 409 that says in words what exists
   * already; any other violation keeps the standard message (platform/http/error-map.ts).
   */
  unique?: Readonly<Record<string, string>>;
}

interface VersionedTable extends PgTable {
  version: PgColumn;
  updatedAt: PgColumn;
  updatedBy: PgColumn;
}

/** What the write may ask of its command. */
export interface CommandWriter {
  /** The optimistic-lock update of the command's row: the command's version, or 404/409 and nothing changes. */
  update<T extends VersionedTable>(table: T, where: SQL, values: PgUpdateSetSource<T>): Promise<void>;
  /**
   * A change of rows the write has already locked (or found by a condition that is the check):
   * the same bookkeeping as `update` (version + 1, updated at/by) without comparing a version.
   */
  touch<T extends VersionedTable>(table: T, where: SQL, values: PgUpdateSetSource<T>): Promise<void>;
  /**
   * The command's audit row, written at this point of the write (so rows of nested commands keep
   * their order): the code a new row got, an action decided by the outcome (`enable`/`disable`), and
   * the detail only the write knows (before and after, under the keys the labels name).
   */
  audit(entry?: {
    /** Several codes: one row under each (a relation shows in the history of both its customers). */
    code?: string | null | readonly string[];
    action?: string;
    detail?: unknown;
  }): Promise<void>;
  /** The write found nothing to change (already the default, …): no audit row. */
  unchanged(): void;
}

/**
 * An update's audit detail with only the fields it changed: `before` holds their old values, `after`
 * the new ones (compared as JSON, so decimals and dates compare by their text).
 */
export function changedFields<A extends Record<string, unknown>>(
  before: { [K in keyof A]?: unknown },
  after: A,
): { before: Partial<Record<keyof A, unknown>>; after: Partial<A> } {
  const keys = (Object.keys(after) as (keyof A & string)[]).filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
  return {
    before: Object.fromEntries(keys.map((k) => [k, before[k]])) as Partial<Record<keyof A, unknown>>,
    after: Object.fromEntries(keys.map((k) => [k, after[k]])) as Partial<A>,
  };
}

/** The SQLSTATE and constraint of a database error, wherever the driver or drizzle wrapped it. */
function violation(err: unknown): { code?: string; constraint?: string; message?: string } | undefined {
  for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    const x = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (x.code === '23505')
      return {
        code: x.code,
        ...(typeof x.constraint === 'string' && { constraint: x.constraint }),
        ...(typeof x.message === 'string' && { message: x.message }),
      };
  }
  return undefined;
}

/**
 * A hit on one of the named unique indexes becomes its 409; anything else goes on unchanged (a
 * document's save answers its own index this way too: `onError` in workflow/pipeline.ts).
 */
function uniqueConflict(unique: Readonly<Record<string, string>>): (err: unknown) => never {
  return (err) => {
    const v = violation(err);
    if (v)
      for (const [index, msg] of Object.entries(unique))
        if (v.constraint === index || v.message?.includes(index)) throw conflict(msg);
    throw err;
  };
}

/**
 * The one path of every write (docs/architecture.md "The command path"): in the caller's transaction
 * when `ex` is one, else in a new one, the write runs with a writer that checks the command's
 * version and bumps the bookkeeping columns, must write the command's audit row (or say it changed
 * nothing) before it ends, and a named unique index it hits answers in words. The document pipeline
 * (workflow/pipeline.ts) audits its saves and deletes through it.
 */
/**
 * The audit rows of the command running in a transaction and of the commands nested in it (an
 * approval's hook posting its document), written together in one statement as the outermost one
 * ends: one round trip instead of one a row, inside the transaction that holds the approval's locks.
 */
const pendingAudit = new WeakMap<Tx, { actor: Actor; entries: AuditEntry[] }[]>();
/** A write waiting for a statement of its document (`owner`: laterOwner) to run with. */
interface WaitingWrite {
  owner: string;
  write: (gate: SQL) => SQL;
}
/** The writes waiting in a transaction for the statement that ends a command (writeLater). */
const pendingWrites = new WeakMap<Tx, WaitingWrite[]>();

/** Whose waiting writes a statement carries (writeLater, writeWithAudit): a document's, by type and code. */
export const laterOwner = (docType: string, docCode: string): string => `${docType}:${docCode}`;

/** Takes the waiting writes of `owner` (all of them without one) out of `queue`, in their order. */
function takeWrites(queue: WaitingWrite[], owner: string | undefined): WaitingWrite[] {
  const taken = queue.filter((w) => owner === undefined || w.owner === owner);
  queue.splice(0, queue.length, ...queue.filter((w) => !taken.includes(w)));
  return taken;
}

/**
 * Runs `fn` in `tx` with the audit rows of every command inside it (and of those nested in them)
 * written together, in one statement, as it ends: a document saved and submitted in one request
 * writes its two rows at once (workflow/pipeline.ts saveDraft). Inside a command, or inside another
 * auditTogether, the rows wait for the outermost one.
 */
export async function auditTogether<T>(tx: Tx, fn: () => Promise<T>): Promise<T> {
  if (pendingAudit.has(tx)) return fn();
  pendingAudit.set(tx, []);
  pendingWrites.set(tx, []);
  try {
    const result = await fn();
    // Writes still waiting go with the audit rows, one statement (a gate that always opens).
    if (pendingWrites.get(tx)!.length) await writeWithAudit(tx, sql`select 1 as ok`);
    for (const rows of pendingAudit.get(tx)!) await writeAudits(tx, rows.actor, rows.entries);
    return result;
  } finally {
    pendingAudit.delete(tx);
    pendingWrites.delete(tx);
  }
}

/**
 * A write that nothing else in the transaction reads before it ends, given the condition that
 * opens it (`gate`, to put in its WHERE): it waits for the next write that ends a command of the
 * same document (writeWithAudit with the same `owner`: laterOwner), and is run by that statement
 * as a CTE of its own, gated on that write having changed a row; when it changed none, the write
 * stays waiting. A statement of another document (a hook that submits one) never carries it.
 * Whatever still waits when the outermost command ends is written then, with its audit rows.
 * Outside auditTogether it runs at once. A statement less for each such write (bench/README.md
 * "Fourteenth pass"); a caller must read none of what it writes before the transaction ends, and
 * its errors surface at that later statement.
 */
export async function writeLater(tx: Tx, owner: string, write: (gate: SQL) => SQL): Promise<void> {
  const queue = pendingWrites.get(tx);
  if (queue) queue.push({ owner, write });
  else await tx.execute(write(sql`true`));
}

/**
 * The type each of the audit row's values is sent as by writeWithAudit: every key of auditRow, the
 * type checks that none is missing.
 */
const AUDIT_COLUMN_TYPES: Record<keyof ReturnType<typeof auditRow>, string> = {
  actorId: 'bigint',
  actorName: 'text',
  entity: 'text',
  entityCode: 'text',
  action: 'text',
  detail: 'jsonb',
  requestId: 'text',
  ip: 'text',
  result: 'text',
};

/**
 * `statement`, a write answering the rows it changed (`returning`), with the audit rows waiting in
 * `tx` (those of the commands audited so far, auditTogether) written by the same statement when it
 * changed a row: a round trip less for a write that ends its command (an approval's guarded update
 * of the document's state, bench/README.md "Twelfth pass"). The rows keep their order, and their
 * ids stay in the order of the commands that audited. When the write changed nothing they are not
 * written and stay waiting, written as the outermost command ends like any other. Rows a command
 * audits after this are written then too. The writes waiting (writeLater) of `owner` (every one,
 * without it: the outermost command's end) go the same way: each a CTE of the statement, gated on
 * the write having changed a row, else left waiting.
 */
export async function writeWithAudit<R>(tx: Tx, statement: SQL, owner?: string): Promise<R[]> {
  const queue = pendingAudit.get(tx);
  const groups = queue?.splice(0) ?? [];
  const rows = groups.flatMap((g) => g.entries.map((e) => auditRow(g.actor, e)));
  const waiting = pendingWrites.get(tx);
  const writes = waiting ? takeWrites(waiting, owner) : [];
  if (rows.length === 0 && writes.length === 0) return queryRows<R>(tx, statement);
  const gate = sql`exists (select 1 from changed)`;
  const later = writes.map(({ write }, i) => sql`, ${sql.identifier(`later_${i}`)} as (${write(gate)})`);
  if (rows.length === 0) {
    let done: R[] = [];
    try {
      done = await queryRows<R>(
        tx,
        sql`with changed as (${statement})${sql.join(later)} select * from changed`,
      );
    } finally {
      if (done.length === 0) waiting?.unshift(...writes);
    }
    return done;
  }
  // Each column once, with the type its value is sent as: the row's order and the select's agree.
  const typed = (Object.keys(AUDIT_COLUMN_TYPES) as (keyof typeof AUDIT_COLUMN_TYPES)[]).map(
    (key) => [key, sql.raw(AUDIT_COLUMN_TYPES[key])] as const,
  );
  const columns = sql.join(
    typed.map(([key]) => sql.identifier(auditLog[key].name)),
    sql`, `,
  );
  const values = rows.map(
    (r) =>
      sql`(${sql.join(
        typed.map(([key, type]) => {
          const v = key === 'detail' && r.detail !== null ? JSON.stringify(r.detail) : r[key];
          return sql`${v}::${type}`;
        }),
        sql`, `,
      )})`,
  );
  let changed: R[] = [];
  try {
    changed = await queryRows<R>(
      tx,
      sql`with changed as (${statement}),
           audited as (insert into ${auditLog} (${columns})
             select * from (values ${sql.join(values, sql`, `)}) as r
              where exists (select 1 from changed))${sql.join(later)}
           select * from changed`,
    );
  } finally {
    if (changed.length === 0) {
      queue?.unshift(...groups);
      waiting?.unshift(...writes);
    }
  }
  return changed;
}

export async function runCommand<T>(
  ex: Executor,
  actor: Actor,
  cmd: Command,
  apply: (tx: Tx, w: CommandWriter) => Promise<T>,
): Promise<T> {
  const run = (tx: Tx): Promise<T> => auditTogether(tx, () => runWrite(tx));
  const runWrite = async (tx: Tx): Promise<T> => {
    let audited = false;
    let unchanged = false;
    const w: CommandWriter = {
      update: (table, where, values) =>
        updateVersioned(tx, table, where, cmd.version ?? -1, values, actor.userId, cmd.what),
      async touch(table, where, values) {
        await tx
          .update(table)
          .set({
            version: sql`${table.version} + 1`,
            updatedAt: sql`now()`,
            updatedBy: actor.userId,
            ...values,
          } as PgUpdateSetSource<typeof table>)
          .where(where);
      },
      async audit(entry = {}) {
        const action = entry.action ?? cmd.action;
        if (audited || !action) throw new Error(`command ${cmd.entity}.${action}: audited twice or unnamed`);
        audited = true;
        const code = entry.code !== undefined ? entry.code : (cmd.code ?? null);
        // Written as the outermost command ends (pendingAudit), in the order the commands audited.
        const queue = pendingAudit.get(tx)!;
        let mine = queue[queue.length - 1];
        if (mine?.actor !== actor) queue.push((mine = { actor, entries: [] }));
        for (const entityCode of Array.isArray(code) ? code : [code as string | null])
          mine.entries.push({ entity: cmd.entity, entityCode, action, detail: entry.detail });
      },
      unchanged: () => {
        unchanged = true;
      },
    };
    const result = await apply(tx, w);
    if (!audited && !unchanged)
      throw new Error(`command ${cmd.entity}.${cmd.action}: the write ended without its audit row`);
    return result;
  };
  const done = ex instanceof PgTransaction ? run(ex as Tx) : ex.transaction(run);
  return cmd.unique ? done.catch(uniqueConflict(cmd.unique)) : done;
}
