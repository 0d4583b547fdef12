import { z } from 'zod';
import { date } from './fields';
import { listSchema } from './list';
import type { RunProgress } from './jobs';

/**
 * 营业日 (business date) and 日终 (day-end), docs/business-date.md. Paths without /api; the screen's
 * menu code is `ft-bizdate` (its `save` button sets the date and runs the day-end).
 */
const BASE = '/ft/api/system';
export const BIZDATE_PATHS = {
  /** Everyone signed in: the business date and where it comes from. */
  view: `${BASE}/bizDate`,
  /** ft-bizdate:save, body bizDateSaveSchema: moves the business date, then runs the day-end. */
  save: `${BASE}/bizDate/save`,
  /**
   * Who may move the date: the day-end running now (a forward move's catch-up, docs/business-date.md),
   * DayEndProgress.
   */
  progress: `${BASE}/dayEnd/progress`,
  /** ft-bizdate:save: runs the day-end for the current business date again. */
  runDayEnd: `${BASE}/dayEnd/run`,
  /** ft-bizdate: the day-end job log. Body dayEndListSchema. */
  dayEndList: `${BASE}/dayEnd/list`,
  /** ft-bizdate: what one run's date holds (overdue items and the day's penalty). ?businessDate */
  dayEndItems: `${BASE}/dayEnd/items`,
  /** Everyone signed in: my reminders (due soon, overdue) in 待办. Body reminderListSchema. */
  reminders: `${BASE}/reminders`,
} as const;

export const BIZDATE_MENU = 'ft-bizdate';

/** Items due within this many days get a 到期提醒 in their contract owners' 待办. */
export const DUE_REMINDER_DAYS = 7;
/**
 * The furthest one move of the business date may go forward: every day passed over runs its
 * day-end (docs/business-date.md "Catching up"), so a mistyped year would hold the book for hours.
 */
export const MAX_FORWARD_DAYS = 366;
export const tooFarForwardMessage = (current: string) =>
  `营业日一次最多前移${MAX_FORWARD_DAYS}天（当前营业日 ${current}），请分次前移`;

export const BIZDATE_SOURCES = ['override', 'stored', 'setting', 'calendar'] as const;
export type BizDateSource = (typeof BIZDATE_SOURCES)[number];
export const BIZDATE_SOURCE_LABELS: Record<BizDateSource, string> = {
  override: '测试设定',
  stored: '营业日设置',
  setting: '启动参数 BUSINESS_DATE',
  calendar: '自然日（北京时间）',
};

export interface BizDateView {
  businessDate: string;
  source: BizDateSource;
  /** The latest date with postings (the date may not move back before it), or null. */
  lastPostingDate: string | null;
  lastDayEnd: DayEndRun | null;
}

export const bizDateSaveSchema = z.object({ businessDate: date('营业日') });
export const dayEndQuery = z.object({ businessDate: date('营业日') });

export const DAY_END_STATES = ['running', 'done', 'failed'] as const;
export type DayEndState = (typeof DAY_END_STATES)[number];
export const DAY_END_STATE_LABELS: Record<DayEndState, string> = {
  running: '运行中',
  done: '完成',
  failed: '失败',
};
export const DAY_END_TRIGGERS = ['dateChange', 'manual', 'catchUp'] as const;
export type DayEndTrigger = (typeof DAY_END_TRIGGERS)[number];
export const DAY_END_TRIGGER_LABELS: Record<DayEndTrigger, string> = {
  dateChange: '营业日变更',
  manual: '手动运行',
  catchUp: '日终补跑',
};

/** One line of the job log. */
export interface DayEndRun {
  id: number;
  businessDate: string;
  trigger: DayEndTrigger;
  state: DayEndState;
  startedAt: string;
  endedAt: string | null;
  startedByName: string | null;
  contracts: number;
  overdueItems: number;
  /** Σ of the day's penalty accruals. */
  penaltyOfDay: string;
  /** Reminders added by this run (0 when the date was already done). */
  remindersAdded: number;
  error: string | null;
  /**
   * While 运行中: its phase and how many contracts of how many are done (docs/business-date.md
   * "Progress"); the counts above are the run's only once it has committed.
   */
  progress: RunProgress | null;
}

/** What moving the date did: the day-ends it ran, in order, the move's own (or a failed one) last. */
export interface BizDateMoved {
  from: string;
  to: string;
  /** The last day-end run: `to`'s, or the day that failed and stopped the catch-up. */
  run: DayEndRun;
  /** Day-ends run by this move (days a run had completed before are not run again). */
  days: number;
}

/** The day-end running now, if any: the screen polls it while a move catches up. */
export interface DayEndProgress {
  running: DayEndRun | null;
}

export const dayEndListSchema = listSchema({}, ['startedAt']);

export interface DayEndItem {
  contBizCode: string;
  contractNo: string;
  period: number;
  dueDate: string;
  overdueDays: number;
  principalOverdue: string;
  /** Null on a mark written before the day-end recorded it (docs/business-date.md "The day-end"). */
  interestOverdue: string | null;
  feeOverdue: string | null;
  penaltyOfDay: string;
  /** Accrued through the business date, paid or not. */
  penaltyAccrued: string;
  /** Accrued less paid: owing on the business date (the 台账's). Null on a mark written before it was recorded. */
  penaltyOwed: string | null;
}

export const REMINDER_KINDS = ['dueSoon', 'overdue'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];
export const REMINDER_KIND_LABELS: Record<ReminderKind, string> = { dueSoon: '即将到期', overdue: '已逾期' };

export const reminderListSchema = listSchema({}, ['dueDate']);

export interface ReminderItem {
  id: number;
  kind: ReminderKind;
  contBizCode: string;
  contractNo: string;
  custName: string;
  period: number;
  dueDate: string;
  /** What the item still owes (principal + interest + fee). */
  openAmount: string;
  /** Penalty owed on the business date (accrued less paid): an overdue item may owe only this. */
  penaltyAmount: string;
  /** The date the reminder was given. */
  businessDate: string;
  /** The date openAmount and penaltyAmount are as of: the business date of the request. */
  asOf: string;
}
