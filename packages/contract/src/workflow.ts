import { z } from 'zod';
import { int, money, oneOf, optionalText, text, version } from './fields';
import { listSchema } from './list';

/**
 * Approvals (docs/architecture.md "Documents and approvals"): one workflow for every
 * document type. The document keeps its own `state` column (draft → pending → approved | rejected);
 * the workflow keeps the process instances, approval records and circulation.
 */

export const DOC_STATES = ['draft', 'pending', 'approved', 'rejected'] as const;
export type DocState = (typeof DOC_STATES)[number];
export const DOC_STATE_LABELS: Record<DocState, string> = {
  draft: '草稿',
  pending: '审核中',
  approved: '已审核',
  rejected: '已驳回',
};
/** Only these states may be edited, deleted or submitted. */
export const EDITABLE_STATES: readonly DocState[] = ['draft', 'rejected'];

/**
 * Every document type with its Chinese name and the menu code of its screen (whose
 * `:audit`/`:unAudit` or `:pass`/`:reject` and `:circulate` buttons guard the approval calls).
 */
export const DOC_TYPES = {
  contract: { label: '合同信息', menuCode: 'ft-contract-info' },
  contractChange: { label: '合同变更', menuCode: 'ft-contract-chg' },
  handover: { label: '资料交接单', menuCode: 'ft-contract-handover' },
  prepayment: { label: '前期款', menuCode: 'ft-pa-mgr' },
  income: { label: '来款', menuCode: 'ft-income' },
  paid: { label: '来款核销', menuCode: 'ft-paid' },
  paidRed: { label: '来款核销冲红', menuCode: 'ft-paid-red' },
  loan: { label: '放款单', menuCode: 'ft-loan' },
  // Approved by the 放款单's own checkers (its screen's audit buttons).
  loanRed: { label: '放款单冲红', menuCode: 'ft-loan' },
  // 五级分类的调整 (docs/classification.md).
  classAdjust: { label: '分类调整单', menuCode: 'ft-classification' },
  // 回购 (docs/buyback.md): the 回购单 and the 回购款核销 that settle it, under one screen.
  buyback: { label: '回购单', menuCode: 'ft-buyback' },
  buybackSettle: { label: '回购款核销', menuCode: 'ft-buyback' },
  // 核销坏账 (docs/accounting.md "Bad-debt write-off").
  badDebt: { label: '核销坏账', menuCode: 'ft-bad-debt' },
  credit: { label: '授信', menuCode: 'ft-credit-info' },
  credDistribution: { label: '额度分配', menuCode: 'ft-credit-dist' },
  credChange: { label: '额度变更', menuCode: 'ft-credit-chg' },
  compInfoChange: { label: '企业信息变更', menuCode: 'crm-cor-info' },
  compManagerChange: { label: '管理员变更', menuCode: 'crm-cor-mg' },
  // 客户准入 (docs/admission.md): the business side raises it, risk admits the customer.
  custAdmission: { label: '客户准入', menuCode: 'ft-cust-admit' },
} as const satisfies Record<string, { label: string; menuCode: string }>;
export type DocType = keyof typeof DOC_TYPES;
export const DOC_TYPE_KEYS = Object.keys(DOC_TYPES) as [DocType, ...DocType[]];

/** Process instance status (the process view's `status`). */
export const PROC_STATES = ['pending', 'approved', 'rejected', 'withdrawn'] as const;
export type ProcState = (typeof PROC_STATES)[number];
export const PROC_STATE_LABELS: Record<ProcState, string> = {
  pending: '审核中',
  approved: '已审核',
  rejected: '已驳回',
  withdrawn: '已撤回',
};

export const RECORD_ACTIONS = ['submit', 'approve', 'reject', 'revoke', 'withdraw'] as const;
export type RecordAction = (typeof RECORD_ACTIONS)[number];
export const RECORD_ACTION_LABELS: Record<RecordAction, string> = {
  submit: '提交',
  approve: '通过',
  reject: '驳回',
  revoke: '反审核',
  withdraw: '撤回',
};

/** 撤回 refused: an approver has already acted on the submission. */
export const WITHDRAW_TOO_LATE_MSG = '审批人已处理，不能撤回';
/** 撤回 refused: only the maker (who submitted it) may take a document back. */
export const WITHDRAW_NOT_MAKER_MSG = '只有提交人可以撤回该单据';

/** The generic calls of the workflow module (paths without `/api`, docs/protocol.md "Paths and methods"). */
export const WORKFLOW_PATHS = {
  /** My pending approvals (待办). Body: todoListSchema. */
  todo: '/ft/api/workflow/todo',
  /** My circulated documents (待阅). Body: toReadListSchema. */
  toRead: '/ft/api/workflow/toRead',
  /** Counts for the dashboard badge: { todo, toRead }. */
  counts: '/ft/api/workflow/counts',
  /** The process of a document: header, steps for the flow chart, what I may do. ?docType&docCode */
  process: '/ft/api/workflow/process',
  /** Approval records of a document, every round, oldest first. ?docType&docCode */
  records: '/ft/api/workflow/records',
  /** Who a document was circulated to. ?docType&docCode */
  circulation: '/ft/api/workflow/circulation',
  /** Send a document to colleagues to read. ?docType&docCode, body circulateSchema */
  circulate: '/ft/api/workflow/circulate',
  /** Mark one circulated item read. ?id */
  markRead: '/ft/api/workflow/markRead',
  /** The maker takes a submitted document back while nobody has acted on it (撤回). ?docType&docCode */
  withdraw: '/ft/api/workflow/withdraw',
  /** Colleagues to pick in the circulation dialog. */
  users: '/ft/api/workflow/users',
  /** 流程监控: every process instance, filtered (ft-process). Body: instanceListSchema. */
  instances: '/ft/api/workflow/instances',
  /** Process definitions of every document type, with the roles to choose from (ft-process). */
  defList: '/ft/api/workflow/process/list',
  /** Save one document type's process definition (ft-process:save). */
  defSave: '/ft/api/workflow/process/save',
} as const;

/** `?docType=&docCode=` of the per-document calls. */
export const docRefQuery = z.object({
  docType: text('单据类型', 40).regex(/^[a-zA-Z][a-zA-Z0-9]*$/, '单据类型格式不正确'),
  docCode: text('单据编号', 40, { nfkc: true }),
});
export type DocRef = z.output<typeof docRefQuery>;

export const idQuery = z.object({
  id: z.preprocess(
    (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
    int('编号', 1, 2 ** 53 - 1),
  ),
});

/**
 * The body of every document's audit / unAudit (pass / reject) call, with `?bizCode=`.
 * `step` is the step the user saw: when someone else has moved the document on meanwhile the
 * call answers 409 instead of approving a later step by surprise.
 */
export const auditBody = z.object({
  comment: optionalText('审批意见', 500, { multiline: true }),
  step: int('审批步骤', 1, 50).optional(),
});
export type AuditBody = z.output<typeof auditBody>;

/** 保存并提交: a document's save body may carry `submit: true` (there is no separate submit call). */
export const submitFlag = { submit: z.boolean({ error: '提交标志格式不正确' }).optional() };

const optionalDocType = z.preprocess(
  (v) => (v === null || v === '' ? undefined : v),
  text('单据类型', 40).optional(),
);

export const todoListSchema = listSchema({ docType: optionalDocType }, ['startTime', 'docType']);
export const toReadListSchema = listSchema(
  {
    docType: optionalDocType,
    read: z.preprocess(
      (v) => (v === null || v === '' ? undefined : v),
      z.boolean({ error: '已读标志格式不正确' }).optional(),
    ),
  },
  ['sentAt', 'docType'],
);

export const instanceListSchema = listSchema(
  {
    docType: optionalDocType,
    status: z.preprocess(
      (v) => (v === null || v === '' ? undefined : v),
      oneOf('流程状态', PROC_STATES).optional(),
    ),
    keyword: optionalText('关键字', 60),
  },
  ['startTime', 'endTime'],
);

export const circulateSchema = z.object({
  userIds: z
    .array(int('传阅人', 1, 2 ** 53 - 1), { error: '传阅人不能为空' })
    .min(1, '请选择传阅人')
    .max(100, '传阅人不能超过100个'),
  message: optionalText('传阅说明', 500, { multiline: true }),
});

export const processStepSchema = z.object({
  name: text('步骤名称', 40),
  roleCode: text('审批角色', 60),
  minAmount: z.preprocess(
    (v) => (v === null || v === '' ? undefined : v),
    money('金额下限', { min: 'nonNegative' }).optional(),
  ),
});

export const processSaveSchema = z.object({
  docType: oneOf('单据类型', DOC_TYPE_KEYS),
  procName: text('流程名称', 60),
  version,
  steps: z
    .array(processStepSchema, { error: '审批步骤不能为空' })
    .min(1, '至少需要一个审批步骤')
    .max(10, '审批步骤不能超过10个')
    .refine((s) => s.some((x) => x.minAmount === undefined), '至少需要一个不设金额下限的审批步骤'),
});
export type ProcessSave = z.output<typeof processSaveSchema>;

// ----- answers -----------------------------------------------------------------------------

export interface ProcessStepDef {
  no: number;
  name: string;
  roleCode: string;
  roleName: string;
  /** Decimal string; the step applies only when the document amount ≥ it. */
  minAmount: string | null;
}

export interface ProcessDefinition {
  docType: string;
  docTypeLabel: string;
  procName: string;
  version: number;
  steps: ProcessStepDef[];
  updatedAt: string;
}

export interface RoleOption {
  code: string;
  name: string;
}

export interface ProcessDefList {
  list: ProcessDefinition[];
  roles: RoleOption[];
}

export type StepStatus = 'done' | 'current' | 'waiting' | 'rejected';

export interface ProcessStepView {
  no: number;
  name: string;
  roleCode: string;
  roleName: string;
  status: StepStatus;
  actorName: string | null;
  at: string | null;
}

/** The audit process view: procName, status, startTime, endTime, useTime, notic; plus the chart. */
export interface ProcessView {
  docType: string;
  docTypeLabel: string;
  /** The document screen's menu code (its :audit / :circulate buttons). */
  menuCode: string | null;
  docCode: string;
  /** The document's own state (draft when never submitted). */
  docState: DocState;
  /** Null while the document was never submitted. */
  procName: string | null;
  status: ProcState | null;
  startTime: string | null;
  endTime: string | null;
  /** Days from start to end (or to now while pending), one decimal. */
  useTime: number | null;
  /** The subject (摘要) given at submission. */
  notic: string | null;
  amount: string | null;
  submitterName: string | null;
  round: number;
  /** 1-based current step while pending, else null. */
  currentStep: number | null;
  steps: ProcessStepView[];
  /** May the caller approve / reject the current step now (role, four eyes). */
  canApprove: boolean;
  /** Why not, when canApprove is false and the document is pending. */
  cannotReason: string | null;
  /** May the caller take the submission back now (the maker, before any approver acted). */
  canWithdraw: boolean;
  /** The latest round's rejection (or revocation): who and why, while the document is rejected. */
  rejection: { actorName: string; comment: string | null; at: string } | null;
  /**
   * The document's own approve / reject calls (with `?bizCode=`), when its module wired them with
   * auditRoutes.
   */
  decide: DecidePaths | null;
}

export interface DecidePaths {
  auditPath: string;
  unAuditPath: string;
  /** Button actions guarding them: 'audit' / 'unAudit' (credit documents 'pass' / 'reject'). */
  auditAction: string;
  unAuditAction: string;
}

/** 流程监控: one process instance (a submission round) of any document. */
export interface InstanceItem {
  docType: string;
  docTypeLabel: string;
  docCode: string;
  round: number;
  procName: string;
  notic: string;
  amount: string | null;
  status: ProcState;
  currentStep: number | null;
  stepName: string | null;
  submitterName: string;
  startTime: string;
  endTime: string | null;
}

export interface ApprovalRecord {
  id: number;
  round: number;
  step: number;
  stepName: string;
  action: RecordAction;
  actorId: number | null;
  actorName: string;
  comment: string | null;
  at: string;
}

/**
 * A to-do entry: a step to decide (`decide`), or the maker's own document sent back (`rejected`,
 * 被驳回) with the approver's reason, until it is edited and submitted again or deleted.
 */
export interface TodoItem {
  kind: 'decide' | 'rejected';
  /** The rejecting approver's comment (kind `rejected`). */
  reason: string | null;
  /** Who rejected it (kind `rejected`). */
  rejectedBy: string | null;
  docType: string;
  docTypeLabel: string;
  docCode: string;
  procName: string;
  notic: string;
  amount: string | null;
  step: number;
  stepName: string;
  submitterName: string;
  startTime: string;
}

export interface CirculationItem {
  id: number;
  docType: string;
  docTypeLabel: string;
  docCode: string;
  notic: string;
  fromName: string;
  toUserId: number;
  toName: string;
  message: string | null;
  sentAt: string;
  readAt: string | null;
  /** Sent to the caller (they may mark it read). */
  mine: boolean;
}

export interface WorkflowUser {
  id: number;
  realName: string;
  deptName: string | null;
}

export interface WorkflowCounts {
  todo: number;
  toRead: number;
}

export function docTypeLabel(type: string): string {
  return Object.hasOwn(DOC_TYPES, type) ? DOC_TYPES[type as DocType].label : type;
}
