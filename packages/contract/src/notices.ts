import { z } from 'zod';
import { code, int, oneOf, optionalOneOf, optionalText, text, version } from './fields';
import { listSchema } from './list';

/**
 * 通知公告 (docs/operations.md "Announcements"): plain-text announcements with a publish
 * window, shown on the 工作 dashboard to the users of the organisations chosen (and of their
 * sub-organisations); none chosen means everyone.
 */
export const NOTICE_PATHS = {
  list: '/system/api/notice/list',
  get: '/system/api/notice/get',
  add: '/system/api/notice/add',
  update: '/system/api/notice/update',
  /** 发布 / 撤回 from the list. */
  setState: '/system/api/notice/state',
  delete: '/system/api/notice/delete',
  /** The organisation tree of the 发布范围 picker. */
  orgTree: '/system/api/notice/orgTree',
  /** The announcements in force for the caller (the dashboard). */
  mine: '/system/api/notice/mine',
} as const;

export const NOTICE_MENU = 'system-notice';

export const NOTICE_STATES = ['draft', 'published', 'withdrawn'] as const;
export type NoticeState = (typeof NOTICE_STATES)[number];
export const NOTICE_STATE_LABELS: Record<NoticeState, string> = {
  draft: '草稿',
  published: '已发布',
  withdrawn: '已撤回',
};

export const NOTICE_LABELS = {
  title: '公告标题',
  content: '公告内容',
  publishFrom: '发布开始时间',
  publishTo: '发布结束时间',
  deptCodes: '发布范围',
  state: '状态',
} as const;

export const NOTICE_TITLE_MAX = 100;
export const NOTICE_CONTENT_MAX = 5000;
export const NOTICE_MAX_DEPTS = 200;

/** A wall-clock minute in Asia/Shanghai, as the office reads it: `YYYY-MM-DD HH:mm`. */
export const DATETIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/;

export function isRealDateTime(v: string): boolean {
  const m = DATETIME_PATTERN.exec(v);
  if (!m) return false;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (y < 1900 || y > 2200 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

function dateTime(label: string) {
  return z
    .string({ error: `${label}不能为空` })
    .trim()
    .refine((v) => v.length > 0, `${label}不能为空`)
    .refine((v) => v.length === 0 || isRealDateTime(v), `${label}必须是有效时间（YYYY-MM-DD HH:mm）`);
}

export const noticeBodySchema = z
  .object({
    title: text(NOTICE_LABELS.title, NOTICE_TITLE_MAX),
    /** Plain text, shown as written (line breaks kept); never read as HTML. */
    content: text(NOTICE_LABELS.content, NOTICE_CONTENT_MAX, { multiline: true }),
    publishFrom: dateTime(NOTICE_LABELS.publishFrom),
    publishTo: dateTime(NOTICE_LABELS.publishTo),
    deptCodes: z
      .array(code('发布范围的组织'), { error: '发布范围取值不正确' })
      .max(NOTICE_MAX_DEPTS, `发布范围最多${NOTICE_MAX_DEPTS}个组织`)
      .default([]),
    /** A new announcement is saved as a draft or published at once. */
    state: oneOf(NOTICE_LABELS.state, ['draft', 'published']).default('draft'),
  })
  .refine(
    (v) => !isRealDateTime(v.publishFrom) || !isRealDateTime(v.publishTo) || v.publishTo > v.publishFrom,
    {
      path: ['publishTo'],
      message: '发布结束时间必须晚于发布开始时间',
    },
  );
export type NoticeBodyInput = z.input<typeof noticeBodySchema>;
export type NoticeBody = z.output<typeof noticeBodySchema>;

const noticeId = int('公告编号', 1, Number.MAX_SAFE_INTEGER);

/** An edit names the version it was made on: a notice changed meanwhile answers 409. */
export const noticeUpdateSchema = z.intersection(noticeBodySchema, z.object({ id: noticeId, version }));
export const noticeIdSchema = z.object({ id: noticeId });
export const noticeStateSchema = z.object({
  id: noticeId,
  state: oneOf(NOTICE_LABELS.state, ['published', 'withdrawn']),
});

export const noticeListSchema = listSchema(
  {
    title: optionalText(NOTICE_LABELS.title, NOTICE_TITLE_MAX),
    state: optionalOneOf(NOTICE_LABELS.state, NOTICE_STATES),
  },
  ['publishFrom'] as const,
);
export type NoticeListInput = z.input<typeof noticeListSchema>;
export type NoticeListQuery = z.output<typeof noticeListSchema>;

export interface NoticeView {
  id: number;
  title: string;
  content: string;
  publishFrom: string;
  publishTo: string;
  state: NoticeState;
  stateLabel: string;
  version: number;
  /** The organisations chosen; empty = everyone. */
  depts: { code: string; name: string }[];
  createdByName: string | null;
  updatedAt: string;
}

/** What the dashboard shows: an announcement in force for the caller. */
export interface NoticeShown {
  id: number;
  title: string;
  content: string;
  publishFrom: string;
  publishTo: string;
}
