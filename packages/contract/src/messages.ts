import { z } from 'zod';
import { bool, int } from './fields';
import { listSchema } from './list';

/**
 * 消息中心 (docs/operations.md "Messages"): a user's own in-app messages. The bell polls the
 * count (a cheap call: one lookup on a partial index) and opens the list from it.
 */
export const MESSAGE_PATHS = {
  count: '/system/api/message/count',
  list: '/system/api/message/list',
  read: '/system/api/message/read',
  readAll: '/system/api/message/readAll',
} as const;

/** How often the bell asks (ms); the count is also asked again when the window gets focus. */
export const MESSAGE_POLL_MS = 15_000;

export const MESSAGE_KINDS = [
  'todo',
  'rejected',
  'circulate',
  'dueSoon',
  'overdue',
  'jobFailed',
  'notice',
  'collect',
  'promiseBroken',
  'guaranteeExpiry',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export const MESSAGE_KIND_LABELS: Record<MessageKind, string> = {
  todo: '待审批',
  rejected: '被驳回',
  circulate: '传阅',
  dueSoon: '即将到期',
  overdue: '已逾期',
  jobFailed: '任务失败',
  notice: '通知公告',
  collect: '催收提醒',
  promiseBroken: '承诺未履行',
  guaranteeExpiry: '担保到期提醒',
};

export const messageListSchema = listSchema({ unreadOnly: bool('仅未读').optional() }, [
  'createdAt',
] as const);
export type MessageListInput = z.input<typeof messageListSchema>;

export const messageReadSchema = z.object({
  ids: z
    .array(int('消息编号', 1, Number.MAX_SAFE_INTEGER))
    .min(1, '请选择消息')
    .max(500, '一次最多500条消息'),
});

export interface MessageView {
  id: number;
  kind: MessageKind;
  kindLabel: string;
  /** One line saying what happened, in words. */
  title: string;
  docType: string;
  docTypeLabel: string;
  docCode: string;
  subject: string | null;
  fromName: string | null;
  /** The reason of a rejection, the note of a circulation, the item of a reminder. */
  detail: string | null;
  createdAt: string;
  read: boolean;
}

export interface MessageCount {
  unread: number;
  /** The newest message's id (0 when none): the bell reloads its list when it moves. */
  latestId: number;
  /**
   * Which announcements the caller's messages show now (a digest of their ids and versions, '' when
   * none): the 工作 dashboard reloads its 通知公告 when it moves (docs/operations.md "Announcements").
   */
  notices: string;
}
