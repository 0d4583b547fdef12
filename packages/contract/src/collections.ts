import { z } from 'zod';
import { code, date, int, money, oneOf, optionalCode, optionalDate, optionalText } from './fields';
import { listSchema } from './list';

/**
 * 逾期催收 (collections, docs/collections.md): the worklist of overdue contracts, the 催收记录 of
 * each (contact, result, promise to pay), the reminders the day-end sends before and after a due
 * date, and the message a broken promise raises. Paths without the /api prefix.
 */
const BASE = '/ft/api/collection';
export const COLLECTION_PATHS = {
  /** body collectionListSchema: the overdue contracts the user may see, as of the business date. */
  list: `${BASE}/list`,
  /** body collectionExportSchema: the worklist (filters applied, no paging) as a streamed xlsx. */
  export: `${BASE}/export`,
  /** body collectionExportSchema: the worklist as a printable HTML page. */
  print: `${BASE}/print`,
  /** ?contBizCode: the contract's 催收记录, newest first, and its case (assignee, next action). */
  records: `${BASE}/records`,
  /** body collectionRecordSchema: adds a 催收记录. */
  addRecord: `${BASE}/records/add`,
  /** body collectionCaseSchema: the assignee and the next action of a contract's case. */
  saveCase: `${BASE}/case/save`,
  /** The staff an assignee is chosen from. */
  staff: `${BASE}/staff`,
} as const;

export const COLLECTION_MENU = 'ft-collection';
export const COLLECTION_FILE_NAME = '逾期催收.xlsx';

/** How a contact was made. */
export const COLLECTION_CHANNELS = ['phone', 'visit', 'sms', 'letter', 'email', 'other'] as const;
export type CollectionChannel = (typeof COLLECTION_CHANNELS)[number];
export const COLLECTION_CHANNEL_LABELS: Record<CollectionChannel, string> = {
  phone: '电话',
  visit: '上门',
  sms: '短信',
  letter: '函件',
  email: '邮件',
  other: '其他',
};

/** What the contact came to. */
export const COLLECTION_RESULTS = ['promised', 'refused', 'unreachable', 'disputed', 'other'] as const;
export type CollectionResult = (typeof COLLECTION_RESULTS)[number];
export const COLLECTION_RESULT_LABELS: Record<CollectionResult, string> = {
  promised: '承诺还款',
  refused: '拒绝还款',
  unreachable: '无法联系',
  disputed: '存在争议',
  other: '其他',
};

/** A promise to pay: open until its date has passed, then kept or broken (the day-end decides). */
export const PROMISE_STATES = ['open', 'kept', 'broken'] as const;
export type PromiseState = (typeof PROMISE_STATES)[number];
export const PROMISE_STATE_LABELS: Record<PromiseState, string> = {
  open: '待履行',
  kept: '已履行',
  broken: '未履行',
};

/** The reminder schedule of 参数设置 (docs/collections.md "Reminders"). */
export interface CollectionSchedule {
  /** Days before a due date a reminder goes out (T−7, T−1). */
  beforeDays: readonly number[];
  /** The first reminder after a due date (T+1) … */
  afterFirstDays: number;
  /** … and then every this many days while the item stays overdue. */
  afterEveryDays: number;
}
export const DEFAULT_COLLECTION_SCHEDULE: CollectionSchedule = {
  beforeDays: [7, 1],
  afterFirstDays: 1,
  afterEveryDays: 7,
};

/**
 * Whether an item `daysPastDue` days after its due date (negative: before it) gets a reminder on
 * that day by the schedule: one of the days before, the first day after, or every `afterEveryDays`
 * after that.
 */
export function reminderDue(daysPastDue: number, s: CollectionSchedule): boolean {
  if (daysPastDue < 0) return s.beforeDays.includes(-daysPastDue);
  if (daysPastDue < s.afterFirstDays) return false;
  return (daysPastDue - s.afterFirstDays) % s.afterEveryDays === 0;
}

const filters = {
  contBizCode: optionalCode('合同编号'),
  contractNo: optionalText('合同号', 50, { nfkc: true }),
  custName: optionalText('客户名称', 100),
  assigneeName: optionalText('催收人', 50),
  minOverdueDays: z.preprocess(
    (v) => (v === null || v === '' ? undefined : v),
    int('最少逾期天数', 0, 36500).optional(),
  ),
  promise: z.preprocess(
    (v) => (v === null || v === '' ? undefined : v),
    z.enum(PROMISE_STATES, { error: '承诺状态取值不正确' }).optional(),
  ),
};

export const collectionListSchema = listSchema(filters, [
  'overdueDays',
  'overdueAmount',
  'lastContactDate',
  'nextActionDate',
]);
export const collectionExportSchema = z.object(filters);
export type CollectionFilters = z.output<typeof collectionExportSchema>;

export const collectionContQuery = z.object({ contBizCode: code('合同编号') });

export const collectionRecordSchema = z
  .object({
    contBizCode: code('合同编号'),
    contactDate: date('联系日期'),
    channel: oneOf('联系方式', COLLECTION_CHANNELS),
    contactPerson: optionalText('联系人', 50),
    result: oneOf('催收结果', COLLECTION_RESULTS),
    note: optionalText('情况说明', 500, { multiline: true }),
    promiseDate: optionalDate('承诺还款日期'),
    promiseAmount: z.preprocess(
      (v) => (v === null || v === '' ? undefined : v),
      money('承诺还款金额', { min: 'positive' }).optional(),
    ),
  })
  .superRefine((v, ctx) => {
    const promised = v.result === 'promised';
    if (promised && !v.promiseDate)
      ctx.addIssue({ code: 'custom', path: ['promiseDate'], message: '请输入承诺还款日期' });
    if (promised && !v.promiseAmount)
      ctx.addIssue({ code: 'custom', path: ['promiseAmount'], message: '请输入承诺还款金额' });
    if (!promised && (v.promiseDate || v.promiseAmount))
      ctx.addIssue({
        code: 'custom',
        path: ['result'],
        message: '催收结果为承诺还款时才能填写承诺还款日期和金额',
      });
    if (v.promiseDate && v.promiseDate < v.contactDate)
      ctx.addIssue({ code: 'custom', path: ['promiseDate'], message: '承诺还款日期不能早于联系日期' });
  });
export type CollectionRecordInput = z.input<typeof collectionRecordSchema>;

export const collectionCaseSchema = z.object({
  contBizCode: code('合同编号'),
  assigneeId: int('催收人', 1, 2_147_483_647),
  nextAction: optionalText('下一步行动', 200),
  nextActionDate: optionalDate('下一步行动日期'),
});
export type CollectionCaseInput = z.input<typeof collectionCaseSchema>;

/** One overdue contract on the worklist. */
export interface CollectionRow {
  contBizCode: string;
  contractNo: string;
  custName: string;
  assigneeId: number | null;
  /** The case's assignee, else the contract's 业务经理, else its maker. */
  assigneeName: string | null;
  /** The longest overdue days among its items. */
  overdueDays: number;
  overdueItems: number;
  /** Open principal, interest and fee of the overdue items. */
  overdueAmount: string;
  /** Penalty owed on the business date. */
  penaltyAmount: string;
  lastContactDate: string | null;
  lastContactChannel: CollectionChannel | null;
  lastContactResult: CollectionResult | null;
  nextAction: string | null;
  nextActionDate: string | null;
  /** The latest promise to pay, if any. */
  promiseDate: string | null;
  promiseAmount: string | null;
  promiseState: PromiseState | null;
  asOf: string;
}

export interface CollectionRecordView {
  id: number;
  contactDate: string;
  channel: CollectionChannel;
  contactPerson: string | null;
  result: CollectionResult;
  note: string | null;
  promiseDate: string | null;
  promiseAmount: string | null;
  promiseState: PromiseState | null;
  /** What came in between the contact and the promised date (set when the promise is judged). */
  promisePaid: string | null;
  createdByName: string | null;
  createdAt: string;
}

export interface CollectionCaseView {
  contBizCode: string;
  contractNo: string;
  custName: string;
  assigneeId: number | null;
  assigneeName: string | null;
  nextAction: string | null;
  nextActionDate: string | null;
  records: CollectionRecordView[];
}

export interface CollectionStaff {
  userId: number;
  name: string;
  deptName: string | null;
}
