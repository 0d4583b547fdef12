import { z } from 'zod';
import { code, date, oneOf, optionalCode, optionalOneOf, optionalText, text, version } from './fields';
import { listSchema } from './list';
import { DOC_STATES, submitFlag, type DocState } from './workflow';

/**
 * 五级分类 (five-category asset classification, docs/classification.md): proposed at each day-end
 * from a contract's overdue days by the thresholds of 参数设置, adjusted per contract only by a
 * 分类调整单 (workflow document `classAdjust`). Paths without the /api prefix.
 */
const BASE = '/ft/api/classification';
export const CLASS_PATHS = {
  /** body classListSchema: the live contracts with their class as of the business date. */
  list: `${BASE}/list`,
  /** body classExportSchema: the list's rows (filters applied, no paging) as a streamed xlsx. */
  export: `${BASE}/export`,
  /** body classAdjListSchema: the 分类调整单 list. */
  adjList: `${BASE}/adjust/list`,
  /** body classAdjSaveSchema (`submit: true` submits). */
  saveBaseInfo: `${BASE}/adjust/saveBaseInfo`,
  /** ?adjBizCode */
  viewBaseInfo: `${BASE}/adjust/viewBaseInfo`,
  /** ?adjBizCode */
  deleteInfo: `${BASE}/adjust/deleteInfo`,
  /** ?adjBizCode, body auditBody */
  audit: `${BASE}/adjust/audit`,
  unAudit: `${BASE}/adjust/unAudit`,
  /** ?contBizCode: a new 分类调整单 prefilled with the contract's class now. */
  initBase: `${BASE}/adjust/initBase`,
  /** body classDistributionQuery: count and outstanding principal per class on a date. */
  distribution: `${BASE}/distribution`,
  /** body classMigrationQuery: from-class × to-class between two month ends. */
  migration: `${BASE}/migration`,
} as const;

export const CLASS_MENU = 'ft-classification';
export const CLASS_FILE_NAME = '五级分类.xlsx';

/** The five classes, from best to worst (the order is the severity). */
export const ASSET_CLASSES = ['normal', 'watch', 'substandard', 'doubtful', 'loss'] as const;
export type AssetClass = (typeof ASSET_CLASSES)[number];
export const ASSET_CLASS_LABELS: Record<AssetClass, string> = {
  normal: '正常',
  watch: '关注',
  substandard: '次级',
  doubtful: '可疑',
  loss: '损失',
};
/** A contract no day-end has classified yet (disbursed after the latest day-end). */
export const UNCLASSIFIED_LABEL = '未分类';

export const classRank = (c: AssetClass): number => ASSET_CLASSES.indexOf(c);

/**
 * The upper bounds (in overdue days, inclusive) of 关注, 次级 and 可疑; 0 days is 正常 and anything
 * above the last bound is 损失 (docs/classification.md "Proposal").
 */
export interface ClassThresholds {
  watchMaxDays: number;
  substandardMaxDays: number;
  doubtfulMaxDays: number;
}
export const DEFAULT_CLASS_THRESHOLDS: ClassThresholds = {
  watchMaxDays: 90,
  substandardMaxDays: 180,
  doubtfulMaxDays: 360,
};

/** The class the thresholds propose for a contract overdue by `days` (its longest overdue item). */
export function proposeClass(days: number, t: ClassThresholds): AssetClass {
  if (days <= 0) return 'normal';
  if (days <= t.watchMaxDays) return 'watch';
  if (days <= t.substandardMaxDays) return 'substandard';
  if (days <= t.doubtfulMaxDays) return 'doubtful';
  return 'loss';
}

export const classAdjQuery = z.object({ adjBizCode: code('分类调整单编号') });
export const classContQuery = z.object({ contBizCode: code('合同编号') });

export const classAdjSaveSchema = z.object({
  adjBizCode: optionalCode('分类调整单编号'),
  version: version.optional(),
  contBizCode: code('合同编号'),
  toClass: oneOf('调整后分类', ASSET_CLASSES),
  reason: text('调整原因', 500, { multiline: true }),
  ...submitFlag,
});
export type ClassAdjSave = z.input<typeof classAdjSaveSchema>;

const classFilters = {
  contBizCode: optionalCode('合同编号'),
  contractNo: optionalText('合同号', 50, { nfkc: true }),
  custName: optionalText('客户名称', 100),
  assetClass: optionalOneOf('当前分类', ASSET_CLASSES),
  proposedClass: optionalOneOf('建议分类', ASSET_CLASSES),
  adjusted: optionalOneOf('是否调整', ['yes', 'no'] as const),
};

export const classListSchema = listSchema(classFilters, [
  'overdueDays',
  'contractNo',
  'principalOutstanding',
]);

/** The list's filters without paging: what the 导出 writes. */
export const classExportSchema = z.object(classFilters);
export type ClassListFilters = z.output<typeof classExportSchema>;

export const classAdjListSchema = listSchema(
  {
    adjBizCode: optionalCode('分类调整单编号'),
    contBizCode: optionalCode('合同编号'),
    contractNo: optionalText('合同号', 50, { nfkc: true }),
    state: optionalOneOf('审核状态', DOC_STATES),
  },
  ['updatedAt'],
);

export const classDistributionQuery = z.object({ asOf: date('分类日期').optional() });
export const classMigrationQuery = z
  .object({
    fromMonth: z
      .string({ error: '起始月份格式不正确' })
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, '起始月份格式不正确'),
    toMonth: z.string({ error: '截止月份格式不正确' }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, '截止月份格式不正确'),
  })
  .refine((v) => v.fromMonth < v.toMonth, { path: ['toMonth'], message: '截止月份必须晚于起始月份' });

/** One contract on the 五级分类 list. */
export interface ClassRow {
  contBizCode: string;
  contractNo: string;
  custName: string;
  /** The latest day-end's date for this contract (null: not classified yet). */
  classDate: string | null;
  overdueDays: number;
  /** What the thresholds proposed at that day-end. */
  proposedClass: AssetClass | null;
  /** The class in force: the proposal, or an approved adjustment standing over it. */
  assetClass: AssetClass | null;
  /** The approved 分类调整单 holding the class, if one does. */
  adjBizCode: string | null;
  principalOutstanding: string;
  /** 坏账准备 it holds: what the month-end provisioning runs posted to it (docs/accounting.md "Provisioning"). */
  provision: string;
  /** A live 分类调整单 not yet approved (draft, pending or rejected), if any. */
  openAdjBizCode: string | null;
}

export interface ClassAdjInit {
  contBizCode: string;
  contractNo: string;
  custName: string;
  overdueDays: number;
  proposedClass: AssetClass | null;
  fromClass: AssetClass | null;
}

export interface ClassAdjRow {
  adjBizCode: string;
  contBizCode: string;
  contractNo: string;
  custName: string;
  fromClass: AssetClass | null;
  toClass: AssetClass;
  reason: string;
  state: DocState;
  effectiveDate: string | null;
  createdByName: string | null;
  updatedAt: string;
}

export interface ClassAdjView extends ClassAdjRow {
  version: number;
  overdueDays: number;
  proposedClass: AssetClass | null;
}

export type ClassBucket = AssetClass | 'none';
export interface ClassDistributionRow {
  assetClass: ClassBucket;
  label: string;
  contracts: number;
  principalOutstanding: string;
}
export interface ClassDistribution {
  asOf: string;
  rows: ClassDistributionRow[];
  totals: { contracts: number; principalOutstanding: string };
}

/** A migration matrix: `from` 新增 is a contract not classified at the first month end, `to` 退出 one gone by the second. */
export type MigrationFrom = AssetClass | 'new';
export type MigrationTo = AssetClass | 'exit';
export interface ClassMigration {
  fromMonth: string;
  toMonth: string;
  /** The day-end dates the two month ends read (null: none by then). */
  fromDate: string | null;
  toDate: string | null;
  froms: MigrationFrom[];
  tos: MigrationTo[];
  /** cells[from][to] = number of contracts. */
  cells: Record<MigrationFrom, Record<MigrationTo, number>>;
}
export const MIGRATION_FROM_LABELS: Record<MigrationFrom, string> = { ...ASSET_CLASS_LABELS, new: '新增' };
export const MIGRATION_TO_LABELS: Record<MigrationTo, string> = { ...ASSET_CLASS_LABELS, exit: '退出' };
