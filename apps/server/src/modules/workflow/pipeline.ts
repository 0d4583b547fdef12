import type { z } from 'zod';
import type { DocState } from '@portal/contract/workflow';
import { kindOfDocType } from '../../platform/auth/row-scope';
import type { SessionUser } from '../../platform/auth/sessions';
import type { Actor } from '../../platform/db/audit';
import { auditTogether, runCommand } from '../../platform/db/command';
import type { Db, Executor, Tx } from '../../platform/db/client';
import type { Api, Perm } from '../../platform/http/route';
import type { RouteScope, ScopedRows } from '../../platform/http/route-scope';
import type { DocTypeConfig, WorkflowRegistry } from './registry';
import { assertDeletable, assertEditable, submit, versionAfterMove, type TransitionResult } from './service';
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
 * What a document's write answers: its code and, for the audit row the pipeline writes, what
 * changed (only the write knows the before and after). A bare code audits the create or update alone.
 * `head`: the document's head as the write itself answered it (an insert's `returning`), so the
 * pipeline need not read it again (registerDocument; bench/README.md "Write-off contention: tenth
 * pass"); a write that answers none has `never` there.
 */
export type Written<H = never> = string | { code: string; detail: unknown; head?: H };

/** What the process shows of a submitted document. */
export interface Submission {
  subject: string;
  amount?: string | null;
  /**
   * The document's state as read after the write, in the save's transaction (the row is the
   * transaction's: inserted by it, or locked by assertEditable): submit checks it without locking
   * the row again (SubmitInput.heldState).
   */
  state?: DocState | undefined;
}

/**
 * The one save of every document (docs/architecture.md "The document pipeline"), in the caller's
 * transaction: an existing document must be editable, the write writes the draft, the pipeline
 * writes its audit row (create or update) and, when a submission is given, submits it. Routes
 * registered by registerDocument use it, and so does every other maker of a document (an import's
 * rows, a red entry an action asks for, the demo office), so no document is saved unaudited.
 */
export async function saveDraft(
  tx: Tx,
  workflow: WorkflowRegistry,
  input: {
    type: string;
    actor: Actor;
    /** The code of a document saved again; absent for a new one. */
    existing?: string | undefined;
    write(): Promise<Written<unknown>>;
    /** Present to submit at once: the subject and amount, read after the write. */
    submission?: ((code: string) => Promise<Submission>) | undefined;
  },
): Promise<{ code: string; flow: TransitionResult | null }> {
  if (input.existing) await assertEditable(tx, workflow, input.type, input.existing);
  // The save's audit row and the submission's go in one statement (bench/README.md "Write-off
  // contention: prepared statements").
  return auditTogether(tx, async () => {
    const code = await runCommand(
      tx,
      input.actor,
      { entity: input.type, action: input.existing ? 'update' : 'create' },
      async (_tx, w) => {
        const written = await input.write();
        const made = typeof written === 'string' ? written : written.code;
        await w.audit({ code: made, detail: typeof written === 'string' ? undefined : written.detail });
        return made;
      },
    );
    if (!input.submission) return { code, flow: null };
    const { subject, amount, state } = await input.submission(code);
    const flow = await submit(tx, workflow, {
      type: input.type,
      code,
      subject,
      amount: amount ?? null,
      actor: input.actor,
      heldState: state,
    });
    return { code, flow };
  });
}

/**
 * The one delete of every document, in the caller's transaction: it must be deletable (draft or
 * rejected), the remove soft-deletes it (answering what to keep in the audit row, if anything) and
 * the pipeline writes the audit row.
 */
export async function removeDraft(
  tx: Tx,
  workflow: WorkflowRegistry,
  input: { type: string; code: string; actor: Actor; remove(): Promise<unknown> },
): Promise<void> {
  await assertDeletable(tx, workflow, input.type, input.code);
  await runCommand(
    tx,
    input.actor,
    { entity: input.type, action: 'delete', code: input.code },
    async (_tx, w) => w.audit({ detail: await input.remove() }),
  );
}

/**
 * One document type, declared once (docs/architecture.md "The document pipeline"): its table and
 * approval hooks (DocTypeConfig, registered with the workflow), and its view, save, delete, audit
 * and unAudit routes. The pipeline owns what every document repeated by hand: the row scope (the
 * document by `codeParam`, plus `scope`), the transaction, the editable and deletable checks, the
 * audit rows of the save and the delete (saveDraft, removeDraft), the submission to the workflow
 * and the reply. A module supplies only what differs: how to write, read and describe its document.
 */
export interface DocumentDefinition<
  B extends { submit?: boolean | undefined },
  H extends DocumentHead,
> extends DocTypeConfig {
  /** A key of DOC_TYPES; its row scope is the kind of the same name (row-scope.ts). */
  type: string;
  /**
   * Why a type that is no scope kind has no row scope (the workflow's test document). Every other
   * document is found by `bizCode` and `codeParam` in the scope kind named like its type.
   */
  ownerless?: { none: string };
  /** The name of the document's code in the save body, the delete query and the reply. */
  codeParam: string;
  /** Other rows the save names (the contract it belongs to, …), checked against the scope too. */
  scope?: readonly ScopedRows[];
  /** The document's view (`?<codeParam>=`, the delete's query), where it reads the document alone. */
  view?: {
    path: string;
    perm: Perm;
    /** The OpenAPI document's line for it. */
    summary?: string;
    /** Its query when it takes more than the code (default: the delete's query). */
    query?: z.ZodType<Record<string, string | undefined>>;
    /** Reads the document (in the caller's scope); `query` is the view's whole query. */
    read(
      ex: Executor,
      code: string,
      user: SessionUser,
      query: Record<string, string | undefined>,
    ): Promise<unknown>;
  };
  /** Absent for documents made by another document's action (a red entry by rushRed). */
  save?: {
    path: string;
    perm: Perm;
    body: z.ZodType<B>;
    /** Writes the draft (new, or existing and already checked editable); answers its code and what changed. */
    write(tx: Tx, body: B, ctx: SaveContext): Promise<Written<NoInfer<H>>>;
    /** The document's head, read again after the save (and after the submission). */
    find(ex: Executor, code: string): Promise<H>;
    /** What the process shows: subject and amount; may refuse the submission (a 400 or 409). */
    submission(tx: Tx, head: H, body: B): Promise<Submission>;
    /** More of the head in the reply (the write-off's amount). */
    reply?(head: H): Record<string, unknown>;
    /** Turns a failure of the transaction into the answer (a unique index hit into its 409). */
    onError?(err: unknown): never;
  };
  remove: {
    path: string;
    perm: Perm;
    query: z.ZodType;
    /** Soft-deletes the (checked deletable) document; may answer a detail for the audit row. */
    remove(tx: Tx, code: string, actor: Actor): Promise<unknown>;
  };
  audit: { path: string; perm: Perm };
  unAudit: { path: string; perm: Perm };
}

/**
 * Registers a document type with the portal's workflow (its table and hooks) and its view, save,
 * delete, audit and unAudit routes, from its definition.
 */
export function registerDocument<B extends { submit?: boolean | undefined }, H extends DocumentHead>(
  api: Api,
  db: Db,
  workflow: WorkflowRegistry,
  def: DocumentDefinition<B, H>,
): void {
  const kind = kindOfDocType(def.type);
  const ownRows: ScopedRows | undefined = kind && { kind, params: ['bizCode', def.codeParam] };
  if (!ownRows && !def.ownerless) throw new Error(`workflow: document ${def.type} has no row scope`);
  const own: RouteScope = ownRows ?? def.ownerless!;
  const saveScope: RouteScope = ownRows
    ? [ownRows, ...(def.scope ?? [])]
    : def.scope?.length
      ? def.scope
      : own;
  workflow.register(def);
  workflow.markPipelined(def.type);
  const codeOf = (input: unknown): string | undefined => {
    const v = (input as Record<string, unknown>)[def.codeParam] ?? (input as Record<string, unknown>).bizCode;
    return typeof v === 'string' ? v : undefined;
  };

  const view = def.view;
  if (view)
    api.post(
      view.path,
      {
        perm: view.perm,
        scope: own,
        query: view.query ?? def.remove.query,
        ...(view.summary && { summary: view.summary }),
      },
      ({ query, user }) => view.read(db, codeOf(query)!, user, query as Record<string, string | undefined>),
    );

  const save = def.save;
  if (save)
    api.post(save.path, { perm: save.perm, scope: saveScope, body: save.body }, ({ body, actor, user }) => {
      const saved = db.transaction(async (tx): Promise<SavedDocument> => {
        // The head is read once: as the write answered it or after the write, and after a
        // submission taken as read with the state and version the submission gave it (the row is
        // this transaction's throughout; bench/README.md "Write-off contention: tenth pass").
        let head: H | undefined;
        const { code, flow } = await saveDraft(tx, workflow, {
          type: def.type,
          actor,
          existing: codeOf(body),
          write: async () => {
            const written = await save.write(tx, body, { actor, user });
            if (typeof written !== 'string') head = written.head;
            return written;
          },
          submission: body.submit
            ? async (c) => {
                head ??= await save.find(tx, c);
                return { ...(await save.submission(tx, head, body)), state: head.state as DocState };
              }
            : undefined,
        });
        if (head && flow)
          head = {
            ...head,
            state: flow.state,
            version: versionAfterMove(workflow.typeOf(def.type), head.version),
          };
        head ??= await save.find(tx, code);
        return {
          [def.codeParam]: code,
          version: head.version,
          state: head.state as DocState,
          ...save.reply?.(head),
          flow,
        };
      });
      return save.onError ? saved.catch(save.onError) : saved;
    });

  api.post(
    def.remove.path,
    { perm: def.remove.perm, scope: own, query: def.remove.query },
    ({ query, actor }) =>
      db.transaction(async (tx) => {
        const code = codeOf(query)!;
        await removeDraft(tx, workflow, {
          type: def.type,
          code,
          actor,
          remove: () => def.remove.remove(tx, code, actor),
        });
        return null;
      }),
  );

  auditRoutes(api, db, workflow, {
    type: def.type,
    ...(def.codeParam === 'bizCode' ? {} : { codeParam: def.codeParam }),
    audit: def.audit,
    unAudit: def.unAudit,
    scope: own,
  });
}
