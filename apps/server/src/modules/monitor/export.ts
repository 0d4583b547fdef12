import type { FastifyReply } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import {
  LOGIN_LOG_EXPORT_FILE_NAME,
  LOGIN_OUTCOME_LABELS,
  OPER_LOG_EXPORT_FILE_NAME,
  type LoginLogListQuery,
  type OperLogListQuery,
} from '@portal/contract/monitor';
import { formatDateTime } from '@portal/contract/format';
import type { SessionUser } from '../../platform/auth/sessions';
import { queryRows, type Db } from '../../platform/db/client';
import { streamSheet, type XlsxCell } from '../../platform/http/xlsx';
import {
  LOCKED_UNTIL,
  loginConds,
  OPER_FROM,
  OPER_SELECT,
  operConds,
  operView,
  whereOf,
  type LoginRow,
  type OperRow,
} from './service';

/** Rows read per query: the export holds one batch at a time, whatever the number of rows. */
const BATCH = 1000;

interface Column {
  header: string;
  width: number;
}

/** After which row the next batch starts (the list's order: time, then id, newest first). */
interface Cursor {
  at: string;
  id: number;
}

/**
 * A log streamed as it is read (docs/operations.md "Exports of the logs") through the lists' own
 * sheet writer: batches by keyset on (at, id), the next read only once the client has taken the
 * last, so memory stays flat at any row count. The first batch is read before any byte is sent,
 * so a failure there still answers as JSON.
 */
async function streamLog<R extends { at_key: string; id: number }>(
  reply: FastifyReply,
  fileName: string,
  sheetName: string,
  columns: readonly Column[],
  read: (after: Cursor | undefined) => Promise<R[]>,
  cells: (row: R, n: number) => XlsxCell[],
): Promise<void> {
  let rows = await read(undefined);
  streamSheet<XlsxCell[]>(
    reply,
    {
      fileName,
      sheetName,
      columns: columns.map((c, i) => ({ ...c, value: (r) => r[i] ?? null })),
      freeze: true,
      what: `log ${fileName}`,
    },
    async (w) => {
      let n = 0;
      while (rows.length > 0) {
        for (const r of rows) w.record(cells(r, ++n));
        if (rows.length < BATCH) break;
        await w.drained();
        const last = rows[rows.length - 1]!;
        rows = await read({ at: last.at_key, id: Number(last.id) });
      }
    },
  );
}

/** Newest first, like the list; the cursor's time is the database's text, so it compares exactly. */
const after = (at: SQL, id: SQL, c: Cursor | undefined): SQL[] =>
  c ? [sql`(${at}, ${id}) < (${c.at}::timestamptz, ${c.id})`] : [];

const OPER_COLUMNS: readonly Column[] = [
  { header: '序号', width: 8 },
  { header: '操作时间', width: 20 },
  { header: '操作人', width: 16 },
  { header: '姓名', width: 12 },
  { header: '组织', width: 16 },
  { header: '模块', width: 14 },
  { header: '操作', width: 12 },
  { header: '单据编号', width: 16 },
  { header: '结果', width: 8 },
  { header: 'IP地址', width: 16 },
  { header: '请求编号', width: 38 },
];

export async function streamOperLogExport(
  db: Db,
  q: OperLogListQuery,
  user: SessionUser,
  reply: FastifyReply,
): Promise<void> {
  const base = operConds(q, user);
  await streamLog(
    reply,
    OPER_LOG_EXPORT_FILE_NAME,
    '操作日志',
    OPER_COLUMNS,
    (c) =>
      queryRows<OperRow & { at_key: string }>(
        db,
        sql`${OPER_SELECT}, a.at::text as at_key ${OPER_FROM} ${whereOf([...base, ...after(sql`a.at`, sql`a.id`, c)])}
            order by a.at desc, a.id desc limit ${BATCH}`,
      ),
    (r, n) => {
      const v = operView(r);
      return [
        n,
        formatDateTime(v.at),
        v.userName ?? '',
        v.realName ?? '',
        v.orgName ?? '',
        v.entityLabel,
        v.actionLabel,
        v.entityCode ?? '',
        v.resultLabel,
        v.ip ?? '',
        v.requestId ?? '',
      ];
    },
  );
}

const LOGIN_COLUMNS: readonly Column[] = [
  { header: '序号', width: 8 },
  { header: '登录时间', width: 20 },
  { header: '用户名', width: 16 },
  { header: '登录结果', width: 12 },
  { header: 'IP地址', width: 16 },
  { header: '浏览器', width: 60 },
  { header: '锁定至', width: 20 },
];

export async function streamLoginLogExport(
  db: Db,
  q: LoginLogListQuery,
  user: SessionUser,
  reply: FastifyReply,
): Promise<void> {
  const base = loginConds(q, user);
  await streamLog(
    reply,
    LOGIN_LOG_EXPORT_FILE_NAME,
    '登录日志',
    LOGIN_COLUMNS,
    (c) =>
      queryRows<LoginRow & { at_key: string }>(
        db,
        sql`select l.id, l.at, l.at::text as at_key, l.user_name, l.outcome, l.ip, l.user_agent,
                   ${LOCKED_UNTIL(sql`l.user_name`)} as locked_until
              from login_attempts l ${whereOf([...base, ...after(sql`l.at`, sql`l.id`, c)])}
             order by l.at desc, l.id desc limit ${BATCH}`,
      ),
    (r, n) => [
      n,
      formatDateTime(new Date(r.at).toISOString()),
      r.user_name,
      LOGIN_OUTCOME_LABELS[r.outcome] ?? r.outcome,
      r.ip ?? '',
      r.user_agent ?? '',
      r.locked_until ? formatDateTime(new Date(r.locked_until).toISOString()) : '',
    ],
  );
}
