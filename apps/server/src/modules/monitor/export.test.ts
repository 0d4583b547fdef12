import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealRequest } from '@portal/contract/envelope';
import {
  LOGIN_LOG_EXPORT_FILE_NAME,
  MONITOR_MENUS as M,
  MONITOR_PATHS as P,
  OPER_LOG_EXPORT_FILE_NAME,
} from '@portal/contract/monitor';
import { buttonCode } from '@portal/contract/menus';
import {
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
  served,
} from '../../testing/harness';

const ROWS = 20_000;
let t: TestPortal;
let admin: TestClient;
let base: string;

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
  const { db } = t.database;
  // 20,000 of each: one in ten of the audit rows is a bank account's, one in four attempts a wrong password.
  await db.execute(sql`insert into audit_log (at, actor_name, entity, entity_code, action, ip, request_id)
    select now() - make_interval(secs => g), 'exporter', case when g % 10 = 0 then 'bankAccount' else 'contract' end,
           lpad(g::text, 12, '0'), 'update', '10.0.0.' || (g % 250), 'req-' || g
      from generate_series(1, ${ROWS}) g`);
  await db.execute(sql`insert into login_attempts (user_name, success, outcome, at, ip, user_agent)
    select 'exp-' || (g % 50), g % 4 <> 0, case when g % 4 = 0 then 'badPassword' else 'success' end,
           now() - make_interval(secs => g), '10.1.0.' || (g % 250), 'Mozilla/5.0 export-test'
      from generate_series(1, ${ROWS}) g`);
  base = await t.portal.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => t?.close());

/**
 * An export over real HTTP, its body consumed as it arrives, sampling this process's RSS while the
 * server writes it: the export and the reader share the process, so growth bounds both.
 */
async function exportOver(
  path: string,
  body: unknown,
): Promise<{ status: number; buf: Buffer; rssGrowth: number; headers: Headers }> {
  const url = served(path);
  const sealed = await sealRequest(await admin.envelopeKey(), 'POST', url, body);
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    const res = await fetch(base + url, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token!}`, ...sealed.headers },
      body: sealed.body,
    });
    const chunks: Buffer[] = [];
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value));
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    return { status: res.status, buf: Buffer.concat(chunks), rssGrowth: peak - before, headers: res.headers };
  } finally {
    clearInterval(timer);
  }
}

async function sheetOf(buf: Buffer): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  return wb.worksheets[0]!;
}

const MB = 1024 * 1024;

describe('log exports (streamed xlsx)', () => {
  it('操作日志: every row the filters match, readable, with RSS flat at 20,000 rows', async () => {
    // A first, filtered export warms the code paths and pools up, so the measure below is the rows'.
    const filtered = await exportOver(P.operLogExport, { userName: 'exporter', entity: 'bankAccount' });
    const all = await exportOver(P.operLogExport, { userName: 'exporter', pageSize: 20 });
    expect(all.status).toBe(200);
    expect(all.headers.get('content-disposition')).toContain(encodeURIComponent(OPER_LOG_EXPORT_FILE_NAME));
    console.info(
      `操作日志 export of ${ROWS} rows: ${all.buf.length} bytes, RSS +${(all.rssGrowth / MB).toFixed(1)} MB`,
    );
    // A workbook built in memory would hold every row (and its XML) at once; streamed, the growth
    // is a batch and the socket's buffers, whatever the row count.
    expect(all.rssGrowth).toBeLessThan(48 * MB);
    const ws = await sheetOf(all.buf);
    expect(ws.rowCount).toBe(1 + ROWS);
    expect(ws.getRow(1).getCell(2).value).toBe('操作时间');
    // Newest first, like the list: the row written 1 second ago comes first.
    expect(ws.getRow(2).getCell(8).value).toBe('000000000001');
    expect(ws.getRow(1 + ROWS).getCell(8).value).toBe(String(ROWS).padStart(12, '0'));
    const codes = new Set<string>();
    for (let r = 2; r <= 1 + ROWS; r++) codes.add(String(ws.getRow(r).getCell(8).value));
    expect(codes.size).toBe(ROWS);

    const fws = await sheetOf(filtered.buf);
    expect(fws.rowCount).toBe(1 + ROWS / 10);
    expect(fws.getRow(2).getCell(6).value).toBe('银行账户');
    expect(fws.getRow(2).getCell(7).value).toBe('修改');
    expect(fws.getRow(2).getCell(8).value).toBe('000000000010');
  }, 300_000);

  it('登录日志: filters applied, outcome in words, RSS flat at 20,000 rows', async () => {
    const all = await exportOver(P.loginLogExport, { userName: 'exp-' });
    expect(all.status).toBe(200);
    expect(all.headers.get('content-disposition')).toContain(encodeURIComponent(LOGIN_LOG_EXPORT_FILE_NAME));
    console.info(
      `登录日志 export of ${ROWS} rows: ${all.buf.length} bytes, RSS +${(all.rssGrowth / MB).toFixed(1)} MB`,
    );
    expect(all.rssGrowth).toBeLessThan(48 * MB);
    expect((await sheetOf(all.buf)).rowCount).toBe(1 + ROWS);

    const bad = await exportOver(P.loginLogExport, { userName: 'exp-', outcome: 'badPassword' });
    const ws = await sheetOf(bad.buf);
    expect(ws.rowCount).toBe(1 + ROWS / 4);
    expect(ws.getRow(1).getCell(4).value).toBe('登录结果');
    for (let r = 2; r <= ws.rowCount; r++) expect(ws.getRow(r).getCell(4).value).toBe('密码错误');
  }, 300_000);

  it('needs the export button: 401 with the screen alone', async () => {
    const PW = 'Export@12345678';
    await createUserWithCodes(t.database.db, 'log-reader', PW, [M.operLog, M.loginLog]);
    const reader = await t.login('log-reader', PW);
    expect((await reader.call(served(P.operLogExport), {})).status).toBe(401);
    expect((await reader.call(served(P.loginLogExport), {})).status).toBe(401);
    await createUserWithCodes(t.database.db, 'log-exporter', PW, [buttonCode(M.operLog, 'export')]);
    const exporter = await t.login('log-exporter', PW);
    expect((await exporter.call(served(P.operLogExport), { entity: 'nothing' })).httpStatus).toBe(200);
  });
});
