import { sql } from 'drizzle-orm';
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
 * except 待审批, whose recipients the workflow chooses (addTodoMessages); here a user reads and
 * marks their own, and nobody else's.
 */
export async function messageCount(ex: Executor, userId: number): Promise<MessageCount> {
  const [r] = await queryRows<{ unread: number; latest: number | null }>(
    ex,
    sql`select (select count(*)::int from messages where user_id = ${userId} and read_at is null) as unread,
               (select max(id)::int from messages where user_id = ${userId}) as latest`,
  );
  return { unread: r?.unread ?? 0, latestId: r?.latest ?? 0 };
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
  }
}

export async function listMessages(
  ex: Executor,
  userId: number,
  q: z.output<typeof messageListSchema>,
): Promise<Page<MessageView>> {
  const from = sql`from messages m where m.user_id = ${userId} ${q.unreadOnly ? sql`and m.read_at is null` : sql``}`;
  const rows = await queryRows<Row>(
    ex,
    sql`select m.id::int as id, m.kind, m.doc_type, m.doc_code, m.subject, m.from_name, m.detail, m.created_at, m.read_at
          ${from} order by m.id ${q.order === 'asc' ? sql`asc` : sql`desc`}
          limit ${q.pageSize} offset ${offsetOf(q)}`,
  );
  const list = rows.map((r) => {
    const docLabel = docTypeLabel(r.doc_type);
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
    sql`update messages set read_at = now() where user_id = ${userId} and read_at is null
        ${
          ids === 'all'
            ? sql``
            : sql`and id in (${sql.join(
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
export async function addTodoMessages(
  ex: Executor,
  m: { userIds: readonly number[]; docType: string; docCode: string; subject: string; fromName: string },
): Promise<void> {
  if (m.userIds.length === 0) return;
  const rows = m.userIds.map(
    (id) => sql`(${id}, 'todo', ${m.docType}, ${m.docCode}, ${m.subject}, ${m.fromName})`,
  );
  await ex.execute(
    sql`insert into messages (user_id, kind, doc_type, doc_code, subject, from_name) values ${sql.join(rows, sql`, `)}`,
  );
}
