import { z } from 'zod';
import { code, money, optionalCode, optionalText, text, version } from './fields';

/**
 * Debtors (债务人, docs/credit.md "Debtors"): the enterprise customer in the buyer or core role a
 * receivable is owed by. Every place a debtor appears (保理授信, a contract's receivables and
 * payers, the incoming payer matching) names it by its customer code next to the name; this
 * module serves the picker, the 待匹配 list of names not yet linked, the debtor lines (债务人额度)
 * across all sellers and the concentration view. Paths without the /api prefix.
 */
const BASE = '/ft/api/debtor';
export const DEBTOR_PATHS = {
  /** body debtorDictSchema: enabled customers in the buyer or core role ({code,label,uscc}). */
  dict: `${BASE}/dict`,
  /** The free-text debtor names not linked to a customer, with where they appear. */
  unmatched: `${BASE}/unmatched`,
  /** body debtorResolveSchema: links every row bearing the name to the chosen customer. */
  resolve: `${BASE}/resolve`,
  /** The debtor lines with their figures and any change waiting for approval. */
  lines: `${BASE}/lines`,
  /** ?bizCode: one line with its movements. */
  line: `${BASE}/line`,
  /** body debtorLineSaveSchema: proposes a new line or a new limit (waits for a second person). */
  saveLine: `${BASE}/line/save`,
  /** ?bizCode, body {version}: approves the proposal (not by its maker). */
  passLine: `${BASE}/line/pass`,
  /** ?bizCode, body {version}: rejects the proposal. */
  rejectLine: `${BASE}/line/reject`,
  /** Exposure by debtor: top 10 and the share of the portfolio. */
  concentration: `${BASE}/concentration`,
} as const;

/** 待匹配 (resolve names) and 债务人额度 (lines, concentration) screens. */
export const DEBTOR_MATCH_MENU = 'ft-debtor-match';
export const DEBTOR_LINE_MENU = 'ft-debtor-line';
export const DEBTOR_CONC_MENU = 'ft-debtor-conc';

export const debtorDictSchema = z.object({
  /** true: disabled customers too (to show the names of old records). */
  all: z.boolean({ error: '参数all格式不正确' }).optional(),
});

export interface DebtorPick {
  code: string;
  label: string;
  usccCode: string;
}

/** Where an unlinked name appears. */
export const UNMATCHED_SOURCES = [
  'creditFt',
  'creditReceivable',
  'contractReceivable',
  'contractPayer',
] as const;
export type UnmatchedSource = (typeof UNMATCHED_SOURCES)[number];
export const UNMATCHED_SOURCE_LABELS: Record<UnmatchedSource, string> = {
  creditFt: '保理授信',
  creditReceivable: '授信应收账款',
  contractReceivable: '合同应收账款',
  contractPayer: '合同付款方',
};

export interface UnmatchedRow {
  debtorName: string;
  /** Rows bearing the name, per place. */
  counts: Partial<Record<UnmatchedSource, number>>;
  /** The documents (授信 / 合同 codes) the rows belong to, at most 20. */
  docs: string[];
}

export const debtorResolveSchema = z.object({
  debtorName: text('债务人名称', 100),
  debtorCode: code('债务人'),
});

export const LINE_STATES = ['pending', 'active'] as const;
export type DebtorLineState = (typeof LINE_STATES)[number];
export const LINE_STATE_LABELS: Record<DebtorLineState, string> = { pending: '待生效', active: '生效' };

export interface DebtorLineRow {
  bizCode: string;
  debtorCode: string;
  debtorName: string;
  state: DebtorLineState;
  limitAmount: string;
  occupiedAmount: string;
  availableAmount: string;
  /** A proposed limit waiting for approval, and who proposed it. */
  pendingLimit: string | null;
  pendingByName: string | null;
  pendingRemark: string | null;
  version: number;
  updatedAt: string;
}

export interface DebtorLedgerRow {
  movement: 'occupy' | 'release' | 'limit';
  amount: string;
  limitAfter: string;
  occupiedAfter: string;
  docType: string;
  docCode: string;
  reason: string | null;
  bizDate: string;
  actorName: string | null;
  at: string;
}

export const DEBTOR_MOVEMENT_LABELS: Record<DebtorLedgerRow['movement'], string> = {
  occupy: '占用',
  release: '释放',
  limit: '额度调整',
};

export interface DebtorLineView extends DebtorLineRow {
  ledger: DebtorLedgerRow[];
}

export const debtorLineSaveSchema = z.object({
  /** Absent: a new line for the debtor. */
  bizCode: optionalCode('额度编号'),
  debtorCode: code('债务人'),
  limitAmount: money('债务人额度'),
  remark: optionalText('额度说明', 200, { multiline: true }),
  version: version.optional(),
});
export type DebtorLineSave = z.input<typeof debtorLineSaveSchema>;

export const debtorLineQuery = z.strictObject({ bizCode: code('额度编号') });
export const debtorLineDecideSchema = z.object({ version });

export interface ConcentrationRow {
  debtorCode: string | null;
  debtorName: string;
  /** Σ receivables of effective contracts on the debtor. */
  exposure: string;
  /** exposure / the portfolio, as a percentage with two decimals. */
  share: string;
  contracts: number;
  limitAmount: string | null;
}

export interface Concentration {
  total: string;
  /** The 10 largest exposures. */
  top: ConcentrationRow[];
  /** Share of the 10 largest together. */
  topShare: string;
  debtors: number;
  /** Exposure on names not linked to a customer yet (待匹配). */
  unmatched: string;
}
