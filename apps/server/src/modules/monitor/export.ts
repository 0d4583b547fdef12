import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
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
import { contentDisposition, XLSX_MIME } from '../../platform/http/download';
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
 * A sheet streamed as it is read (docs/operations.md "Exports of the logs"): batches by keyset on
 * (at, id), each written and committed before the next is read, so memory stays flat at any row
 * count. The first batch is read before any byte is sent, so a failure there still answers as JSON.
 */
async function streamSheet<R extends { at_key: string; id: number }>(
  reply: FastifyReply,
  fileName: string,
  sheet: string,
  columns: readonly Column[],
  read: (after: Cursor | undefined) => Promise<R[]>,
  cells: (row: R, n: number) => (string | number)[],
): Promise<void> {
  let rows = await read(undefined);
  const out = new PassThrough();
  reply
    .code(200)
    .header('content-type', XLSX_MIME)
    .header('content-disposition', contentDisposition('attachment', fileName))
    .header('cache-control', 'no-store');
  const produce = async () => {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    const ws = wb.addWorksheet(sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = columns.map((c) => ({ header: c.header, width: c.width }));
    const head = ws.getRow(1);
    head.font = { bold: true };
    head.commit();
    let n = 0;
    while (rows.length > 0) {
      for (const r of rows) ws.addRow(cells(r, ++n)).commit();
      const last = rows[rows.length - 1]!;
      rows = rows.length < BATCH ? [] : await read({ at: last.at_key, id: Number(last.id) });
    }
    ws.commit();
    await wb.commit();
  };
  produce().catch((err: unknown) => {
    reply.log.error({ err }, `${fileName} export failed mid-stream`);
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  reply.send(out);
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
  await streamSheet(
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
  await streamSheet(
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
