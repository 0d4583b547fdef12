import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '@portal/contract/api';
import {
  MESSAGE_KIND_LABELS,
  type MessageCount,
  type MessageKind,
  type MessageView,
  type messageListSchema,
} from '@portal/contract/messages';
import { docTypeLabel } from '@portal/contract/workflow';
import { queryRows, type Executor } from '../../platform/db/client';
import { countOf, offsetOf, page } from '../../platform/http/list';

/**
 * 消息中心 (docs/operations.md "Messages"). Messages are written by triggers (migrations/0028),
 * except 待审批, whose recipients the workflow chooses (todoMessagesInsert); here a user reads and
 * marks their own, and nobody else's.
 */
/**
 * An announcement's message (kind notice) is shown, counted and marked read only while its
 * announcement is in force: published and inside its window (docs/operations.md "Announcements").
 */
const inForce = sql`n.state = 'published' and n.publish_from <= now() and n.publish_to > now()`;
const noticeOf = sql`n.id = case when m.kind = 'notice' then m.doc_code::bigint end`;
const shown = sql`(m.kind <> 'notice' or exists (select 1 from notices n where ${noticeOf} and ${inForce}))`;

export async function messageCount(ex: Executor, userId: number): Promise<MessageCount> {
  const [r] = await queryRows<{ unread: number; latest: number | null; notices: string }>(
    ex,
    sql`select (select count(*)::int from messages m where m.user_id = ${userId} and m.read_at is null and ${shown}) as unread,
               (select max(m.id)::int from messages m where m.user_id = ${userId} and ${shown}) as latest,
               (select coalesce(md5(string_agg(n.id || '.' || n.version, ',' order by n.id)), '')
                  from messages m join notices n on ${noticeOf}
                 where m.user_id = ${userId} and m.kind = 'notice' and ${inForce}) as notices`,
  );
  return { unread: r?.unread ?? 0, latestId: r?.latest ?? 0, notices: r?.notices ?? '' };
}

interface Row {
  id: number;
  kind: MessageKind;
  doc_type: string;
  doc_code: string;
  subject: string | null;
  from_name: string | null;
  detail: string | null;
  created_at: string;
  read_at: string | null;
}

function titleOf(r: Row, docLabel: string): string {
  const what = `${docLabel}${r.subject ? `「${r.subject}」` : ` ${r.doc_code}`}`;
  switch (r.kind) {
    case 'todo':
      return `${r.from_name ?? ''}提交的${what}待您审批`;
    case 'rejected':
      return `您提交的${what}被${r.from_name ?? ''}驳回${r.detail ? `：${r.detail}` : ''}`;
    case 'circulate':
      return `${r.from_name ?? ''}向您传阅了${what}`;
    case 'dueSoon':
      return `合同${r.subject ?? r.doc_code}即将到期（${r.detail ?? ''}）`;
    case 'overdue':
      return `合同${r.subject ?? r.doc_code}已逾期（${r.detail ?? ''}）`;
    case 'collect':
      return `合同${r.subject ?? r.doc_code}催收提醒（${r.detail ?? ''}）`;
    case 'promiseBroken':
      return `合同${r.subject ?? r.doc_code}承诺还款未履行（${r.detail ?? ''}）`;
    case 'guaranteeExpiry':
      return `授信 ${r.doc_code}${r.subject ? `「${r.subject}」` : ''}担保提醒（${r.detail ?? ''}）`;
    case 'jobFailed':
      return `定时任务「${r.subject ?? r.doc_code}」运行失败${r.detail ? `：${r.detail}` : ''}`;
    case 'notice':
      return `${r.from_name ?? ''}发布了通知公告「${r.subject ?? ''}」`;
  }
}

export async function listMessages(
  ex: Executor,
  userId: number,
  q: z.output<typeof messageListSchema>,
): Promise<Page<MessageView>> {
  const from = sql`from messages m where m.user_id = ${userId} and ${shown} ${q.unreadOnly ? sql`and m.read_at is null` : sql``}`;
  const rows = await queryRows<Row>(
    ex,
    sql`select m.id::int as id, m.kind, m.doc_type, m.doc_code, m.subject, m.from_name, m.detail, m.created_at, m.read_at
          ${from} order by m.id ${q.order === 'asc' ? sql`asc` : sql`desc`}
          limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  const list = rows.map((r) => {
    const docLabel = r.kind === 'notice' ? MESSAGE_KIND_LABELS.notice : docTypeLabel(r.doc_type);
    return {
      id: Number(r.id),
      kind: r.kind,
      kindLabel: MESSAGE_KIND_LABELS[r.kind] ?? r.kind,
      title: titleOf(r, docLabel),
      docType: r.doc_type,
      docTypeLabel: docLabel,
      docCode: r.doc_code.trim(),
      subject: r.subject,
      fromName: r.from_name,
      detail: r.detail,
      createdAt: new Date(r.created_at).toISOString(),
      read: r.read_at !== null,
    };
  });
  return page(list, await countOf(ex, from), q);
}

/** Marks the caller's own messages read; ids of other users' messages change nothing. */
export async function markRead(
  ex: Executor,
  userId: number,
  ids: readonly number[] | 'all',
): Promise<MessageCount> {
  await ex.execute(
    sql`update messages m set read_at = now() where m.user_id = ${userId} and m.read_at is null and ${shown}
        ${
          ids === 'all'
            ? sql``
            : sql`and m.id in (${sql.join(
                ids.map((i) => sql`${i}`),
                sql`, `,
              )})`
        }`,
  );
  return messageCount(ex, userId);
}

/**
 * 待审批: a step waits for these users. The workflow chooses them (the step's role holders who may
 * act on it, inside the role's data scope: SECURITY.md "Approvals"), in the transaction that moved
 * the process; a trigger marks them read once the step is decided (migrations/0045).
 */
interface TodoMessages {
  userIds: readonly number[];
  docType: string;
  docCode: string;
  subject: string;
  fromName: string;
}

/**
 * The insert of the 待审批 messages, written only when `gate` holds: the workflow runs it with the
 * statement that ends its command (writeLater, platform/db/command.ts); null when nobody is told.
 */
export function todoMessagesInsert(m: TodoMessages, gate: SQL): SQL | null {
  if (m.userIds.length === 0) return null;
  const rows = m.userIds.map(
    (id) =>
      sql`(${id}::bigint, 'todo', ${m.docType}::text, ${m.docCode}::text, ${m.subject}::text, ${m.fromName}::text)`,
  );
  return sql`insert into messages (user_id, kind, doc_type, doc_code, subject, from_name)
    select * from (values ${sql.join(rows, sql`, `)}) as m where ${gate}`;
}

/**
 * 任务失败: a scheduled or 立即执行 run of a job failed (docs/operations.md "Scheduled jobs"); the
 * administrators are told, with the job's name and the error. doc_type `job`, doc_code the job.
 */
export async function addJobFailedMessages(
  ex: Executor,
  m: { userIds: readonly number[]; job: string; label: string; error: string },
): Promise<void> {
  if (m.userIds.length === 0) return;
  const rows = m.userIds.map((id) => sql`(${id}, 'jobFailed', 'job', ${m.job}, ${m.label}, ${m.error})`);
  await ex.execute(
    sql`insert into messages (user_id, kind, doc_type, doc_code, subject, detail) values ${sql.join(rows, sql`, `)}`,
  );
}

/**
 * 通知公告: brings an announcement's messages in line with it, in the transaction that wrote it
 * (docs/operations.md "Announcements"). While it is published, every enabled user it is addressed
 * to (everybody when no organisation is chosen, else the users of the chosen organisations and of
 * their sub-organisations) has one message: new addressees get one (from the publisher,
 * `byUserId`), those no longer addressed lose theirs, the others keep theirs as read or unread as it
 * was, its subject following the title. Once it is not published (a draft, withdrawn) or deleted,
 * it has none.
 */
export async function syncNoticeMessages(ex: Executor, noticeId: number, byUserId: number): Promise<void> {
  const code = String(noticeId);
  const addressed = sql`(select u.id from users u
      where u.state = 'enabled' and u.deleted_at is null
        and exists (select 1 from notices n where n.id = ${noticeId} and n.state = 'published')
        and (not exists (select 1 from notice_depts nd where nd.notice_id = ${noticeId})
             or u.dept_id in (with recursive down(id) as (
                  select dept_id from notice_depts where notice_id = ${noticeId}
                  union
                  select d.id from depts d join down on d.parent_id = down.id
                ) select id from down)))`;
  await ex.execute(
    sql`delete from messages where kind = 'notice' and doc_code = ${code} and user_id not in ${addressed}`,
  );
  await ex.execute(
    sql`update messages m set subject = n.title from notices n
         where m.kind = 'notice' and m.doc_code = ${code} and n.id = ${noticeId} and m.subject is distinct from n.title`,
  );
  await ex.execute(
    sql`insert into messages (user_id, kind, doc_type, doc_code, subject, from_name)
        select a.id, 'notice', 'notice', ${code}, n.title, (select real_name from users where id = ${byUserId})
          from ${addressed} a join notices n on n.id = ${noticeId}
         where not exists (select 1 from messages m where m.kind = 'notice' and m.doc_code = ${code} and m.user_id = a.id)`,
  );
}

/**
 * 催收提醒 and 承诺未履行 (docs/collections.md): the day-end tells a contract's manager (and its
 * collector) of an item coming due or overdue, and of a promise to pay that was not kept; written
 * in the day-end's transaction. doc_type `contract`, doc_code the contract: the message opens it.
 */
/**
 * The day-end's guarantee reminders (credit/guarantees.ts guaranteeWatchAtDayEnd): one message per
 * person and event, naming the credit (its customer as the subject).
 */
export async function addGuaranteeMessages(
  ex: Executor,
  list: readonly { userId: number; credBizCode: string; custName: string; detail: string }[],
): Promise<void> {
  for (let i = 0; i < list.length; i += 500) {
    const rows = list
      .slice(i, i + 500)
      .map(
        (m) => sql`(${m.userId}, 'guaranteeExpiry', 'credit', ${m.credBizCode}, ${m.custName}, ${m.detail})`,
      );
    await ex.execute(
      sql`insert into messages (user_id, kind, doc_type, doc_code, subject, detail) values ${sql.join(rows, sql`, `)}`,
    );
  }
}

export async function addCollectionMessages(
  ex: Executor,
  list: readonly {
    userId: number;
    kind: 'collect' | 'promiseBroken';
    contBizCode: string;
    contractNo: string;
    detail: string;
  }[],
): Promise<void> {
  for (let i = 0; i < list.length; i += 500) {
    const rows = list
      .slice(i, i + 500)
      .map((m) => sql`(${m.userId}, ${m.kind}, 'contract', ${m.contBizCode}, ${m.contractNo}, ${m.detail})`);
    await ex.execute(
      sql`insert into messages (user_id, kind, doc_type, doc_code, subject, detail) values ${sql.join(rows, sql`, `)}`,
    );
  }
}
