import type { z } from 'zod';
import type { DocState } from '@portal/contract/workflow';
import { kindOfDocType } from '../../platform/auth/row-scope';
import type { SessionUser } from '../../platform/auth/sessions';
import type { Actor } from '../../platform/db/audit';
import type { Db, Executor, Tx } from '../../platform/db/client';
import type { Api, Perm } from '../../platform/http/route';
import type { ScopedRows } from '../../platform/http/route-scope';
import { registerDocType, type DocTypeConfig } from './registry';
import { assertDeletable, assertEditable, submit, type TransitionResult } from './service';
import { auditRoutes } from './wire';

/** What a saved document answers: its code under the type's own name, version, state and process. */
export type SavedDocument = Record<string, unknown> & {
  version: number;
  state: DocState;
  flow: TransitionResult | null;
};

/** The head of a document as its pipeline re-reads it after a save. */
export interface DocumentHead {
  version: number;
  state: string;
}

export interface SaveContext {
  actor: Actor;
  user: SessionUser;
}

/**
 * One document type, declared once (DESIGN.md "Documents and approvals", issue 25): its table and
 * approval hooks (DocTypeConfig, registered with the workflow), and its save, delete, audit and
 * unAudit routes. The pipeline owns what every document repeated by hand: the row scope (the
 * document by `codeParam`, plus `scope`), the transaction, the editable and deletable checks, the
 * submission to the workflow and the reply. The write and remove functions write the audit rows
 * (with what changed, which only they know).
 */
export interface DocumentDefinition<
  B extends { submit?: boolean | undefined },
  H extends DocumentHead,
> extends DocTypeConfig {
  /** A key of DOC_TYPES; its row scope is the kind of the same name (row-scope.ts). */
  type: string;
  /** The name of the document's code in the save body, the delete query and the reply. */
  codeParam: string;
  /** Other rows the save names (the contract it belongs to, …), checked against the scope too. */
  scope?: readonly ScopedRows[];
  /** Absent for documents made by another document's action (a red entry by rushRed). */
  save?: {
    path: string;
    perm: Perm;
    body: z.ZodType<B>;
    /** Writes the draft (new or existing, already checked editable) with its audit row; answers its code. */
    write(tx: Tx, body: B, ctx: SaveContext): Promise<string>;
    /** The document's head, read again after the save (and after the submission). */
    find(ex: Executor, code: string): Promise<H>;
    /** What the process shows: subject and amount; may refuse the submission (a 400 or 409). */
    submission(tx: Tx, head: H, body: B): Promise<{ subject: string; amount?: string | null }>;
    /** More of the head in the reply (the write-off's amount). */
    reply?(head: H): Record<string, unknown>;
    /** Turns a failure of the transaction into the answer (a unique index hit into its 409). */
    onError?(err: unknown): never;
  };
  remove: {
    path: string;
    perm: Perm;
    query: z.ZodType;
    /** Soft-deletes the (checked deletable) document and writes its audit row. */
    remove(tx: Tx, code: string, actor: Actor): Promise<void>;
  };
  audit: { path: string; perm: Perm };
  unAudit: { path: string; perm: Perm };
}

const pipelined = new Set<string>();

/** The document types registered through the pipeline (scope.test.ts checks every DOC_TYPES one is). */
export function pipelinedTypes(): ReadonlySet<string> {
  return pipelined;
}

/** Registers a document type's save, delete, audit and unAudit routes from its definition. */
export function registerDocument<B extends { submit?: boolean | undefined }, H extends DocumentHead>(
  api: Api,
  db: Db,
  def: DocumentDefinition<B, H>,
): void {
  const kind = kindOfDocType(def.type);
  if (!kind) throw new Error(`workflow: document ${def.type} has no row scope`);
  registerDocType(def);
  pipelined.add(def.type);
  const own: ScopedRows = { kind, params: ['bizCode', def.codeParam] };
  const codeOf = (input: unknown): string | undefined => {
    const v = (input as Record<string, unknown>)[def.codeParam] ?? (input as Record<string, unknown>).bizCode;
    return typeof v === 'string' ? v : undefined;
  };

  const save = def.save;
  if (save)
    api.post(
      save.path,
      { perm: save.perm, scope: [own, ...(def.scope ?? [])], body: save.body },
      ({ body, actor, user }) => {
        const saved = db.transaction(async (tx): Promise<SavedDocument> => {
          const given = codeOf(body);
          if (given) await assertEditable(tx, def.type, given);
          const code = await save.write(tx, body, { actor, user });
          let head = await save.find(tx, code);
          let flow: TransitionResult | null = null;
          if (body.submit) {
            const { subject, amount } = await save.submission(tx, head, body);
            flow = await submit(tx, { type: def.type, code, subject, amount: amount ?? null, actor });
            head = await save.find(tx, code);
          }
          return {
            [def.codeParam]: code,
            version: head.version,
            state: head.state as DocState,
            ...save.reply?.(head),
            flow,
          };
        });
        return save.onError ? saved.catch(save.onError) : saved;
      },
    );

  api.post(
    def.remove.path,
    { perm: def.remove.perm, scope: own, query: def.remove.query },
    ({ query, actor }) =>
      db.transaction(async (tx) => {
        const code = codeOf(query)!;
        await assertDeletable(tx, def.type, code);
        await def.remove.remove(tx, code, actor);
        return null;
      }),
  );

  auditRoutes(api, db, {
    type: def.type,
    ...(def.codeParam === 'bizCode' ? {} : { codeParam: def.codeParam }),
    audit: def.audit,
    unAudit: def.unAudit,
  });
}
