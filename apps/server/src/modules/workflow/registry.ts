import { DOC_TYPES, type DocState } from '@portal/contract/workflow';
import type { SQL } from 'drizzle-orm';
import type { Actor } from '../../platform/db/audit';
import type { Tx } from '../../platform/db/client';
import { registryKey } from '../../platform/module';

/** What a hook sees of the document being moved. */
export interface WorkflowDoc {
  type: string;
  code: string;
  /** The subject (摘要) and amount given at submission. */
  subject: string;
  amount: string | null;
  /** Submission round: 1 for the first submission, +1 after each rejection. */
  round: number;
  submittedBy: number;
}

/**
 * Side effects of a document type, run inside the approving transaction. Throw an AppError
 * (`conflict('可用额度不足')`) to refuse: the whole transaction rolls back (document state,
 * process instance, records, audit log and whatever the hook already wrote) and the caller gets
 * that status and message.
 */
export interface DocHooks {
  /**
   * After the last step approves, before the document row turns `approved`. May answer column
   * assignments of the document's own row (`sql\`amount = ${x}\``): they are written by the same
   * guarded update that turns it approved, one statement instead of two (docs/architecture.md
   * "Round trips of an approval").
   */
  onApprove?(tx: Tx, doc: WorkflowDoc, actor: Actor): Promise<void | SQL[]>;
  /** After a pending document is rejected (any step), before its row turns `rejected`. */
  onReject?(tx: Tx, doc: WorkflowDoc, actor: Actor): Promise<void>;
  /**
   * Before any rejection (and any revocation): answer a Chinese reason to refuse (409), e.g.
   * '该来款已有核销记录，不能驳回', or null to allow.
   */
  canReject?(tx: Tx, doc: WorkflowDoc): Promise<string | null>;
  /**
   * Present only for types whose APPROVED documents may be taken back by unAudit (反审核):
   * undo the onApprove side effects. Without it, unAudit of an approved document answers 409.
   */
  onRevoke?(tx: Tx, doc: WorkflowDoc, actor: Actor): Promise<void>;
}

export interface DocTypeConfig {
  /** A key of DOC_TYPES (contract, credit, …) or, in tests, any other name with label + menuCode. */
  type: string;
  /** Default: DOC_TYPES[type].label. */
  label?: string;
  /** Default: DOC_TYPES[type].menuCode. Guards the generic per-document calls (view, circulate). */
  menuCode?: string;
  /** The document's own table; it has a text/char code column and a `state` column. */
  table: string;
  /** Default 'biz_code'. */
  codeColumn?: string;
  /** Default 'state' (values draft | pending | approved | rejected). */
  stateColumn?: string;
  /** Default true: rows with `deleted_at` set count as missing. */
  softDelete?: boolean;
  /** Default true: each transition bumps `version` and sets `updated_at`, `updated_by`. */
  versioned?: boolean;
  /** Default false: also set `submitted_at/by` on submit and `approved_at/by` on the final approval. */
  stamps?: boolean;
  hooks?: DocHooks;
}

export interface ResolvedDocType extends Required<Omit<DocTypeConfig, 'hooks'>> {
  hooks: DocHooks;
}

/** The document's own approve / reject calls, as auditRoutes registered them (for the generic audit views). */
export interface DecidePaths {
  auditPath: string;
  unAuditPath: string;
  /** The button actions guarding them: audit/unAudit, or pass/reject for credit documents. */
  auditAction: string;
  unAuditAction: string;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

/**
 * The document types of one portal: their tables and hooks, the approval calls the audit views
 * answer, and which came through the pipeline. It lives in the portal's registries
 * (WORKFLOW_REGISTRY) and is handed to every transition, so two portals built in one process (as
 * tests do) never run each other's hooks (docs/architecture.md "Modules").
 */
export class WorkflowRegistry {
  private readonly types = new Map<string, ResolvedDocType>();
  private readonly decidePaths = new Map<string, DecidePaths>();
  private readonly pipelined = new Set<string>();

  /** Declares a document type (registerDocument does, from the module's `register()`); once per portal. */
  register(cfg: DocTypeConfig): void {
    if (this.types.has(cfg.type)) throw new Error(`workflow: doc type ${cfg.type} is registered twice`);
    const known = catalogued(cfg.type);
    const label = cfg.label ?? known?.label;
    const menuCode = cfg.menuCode ?? known?.menuCode;
    if (!label || !menuCode) throw new Error(`workflow: doc type ${cfg.type} needs a label and a menuCode`);
    const resolved: ResolvedDocType = {
      type: cfg.type,
      label,
      menuCode,
      table: cfg.table,
      codeColumn: cfg.codeColumn ?? 'biz_code',
      stateColumn: cfg.stateColumn ?? 'state',
      softDelete: cfg.softDelete ?? true,
      versioned: cfg.versioned ?? true,
      stamps: cfg.stamps ?? false,
      hooks: cfg.hooks ?? {},
    };
    for (const id of [resolved.table, resolved.codeColumn, resolved.stateColumn]) {
      if (!IDENT.test(id)) throw new Error(`workflow: bad SQL identifier ${id}`);
    }
    this.types.set(cfg.type, resolved);
  }

  /** The registered type; a programming error (500) when a module forgot to register it. */
  typeOf(type: string): ResolvedDocType {
    const t = this.types.get(type);
    if (!t) throw new Error(`workflow: doc type ${type} is not registered (call registerDocument)`);
    return t;
  }

  /** The registered type, or undefined. */
  find(type: string): ResolvedDocType | undefined {
    return this.types.get(type);
  }

  /** Every registered type (the to-do's 被驳回 entries check each one's document state). */
  all(): ResolvedDocType[] {
    return [...this.types.values()];
  }

  /** Label and menu code of any known type (registered, or in the DOC_TYPES catalogue). */
  info(type: string): { label: string; menuCode: string } | undefined {
    const r = this.types.get(type);
    if (r) return { label: r.label, menuCode: r.menuCode };
    return catalogued(type);
  }

  setDecidePaths(type: string, paths: DecidePaths): void {
    this.decidePaths.set(type, paths);
  }

  decidePathsOf(type: string): DecidePaths | null {
    return this.decidePaths.get(type) ?? null;
  }

  /** Notes a type declared through the pipeline (registerDocument). */
  markPipelined(type: string): void {
    this.pipelined.add(type);
  }

  /** The document types registered through the pipeline (scope.test.ts checks every DOC_TYPES one is). */
  pipelinedTypes(): ReadonlySet<string> {
    return this.pipelined;
  }
}

/** The portal's workflow registry: `ctx.registries.get(WORKFLOW_REGISTRY)`. */
export const WORKFLOW_REGISTRY = registryKey('workflow', () => new WorkflowRegistry());

function catalogued(type: string): { label: string; menuCode: string } | undefined {
  return Object.hasOwn(DOC_TYPES, type) ? DOC_TYPES[type as keyof typeof DOC_TYPES] : undefined;
}

export type { DocState };
