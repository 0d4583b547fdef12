import { PassThrough } from 'node:stream';
import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { and, desc, eq, isNull, lt, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  COMP_ROLE_LABELS,
  COMP_STATE_LABELS,
  COMP_TYPE_LABELS,
  COMPANY_EXPORT_FILE_NAME,
  INDUSTRY_LABELS,
  type CompRole,
  type CompState,
  type CompType,
  type Industry,
} from '@portal/contract/company';
import { formatDateTime, formatMoney } from '@portal/contract/format';
import type { Db } from '../../platform/db/client';
import { contentDisposition, XLSX_MIME } from '../../platform/http/download';
import { companies } from './schema';
import { companyWhere, regionName, type CompanyListQuery } from './service';

const BATCH = 1000;
const parent = alias(companies, 'parent');

const COLUMNS: { header: string; width: number; money?: boolean }[] = [
  { header: '序号', width: 8 },
  { header: '企业编号', width: 15 },
  { header: '企业名称', width: 36 },
  { header: '统一社会信用代码', width: 22 },
  { header: '企业类型', width: 12 },
  { header: '客户角色', width: 20 },
  { header: '法定代表人', width: 12 },
  { header: '注册资本（元）', width: 20, money: true },
  { header: '成立日期', width: 12 },
  { header: '所在地区', width: 26 },
  { header: '详细地址', width: 36 },
  { header: '所属行业', width: 24 },
  { header: '联系人', width: 12 },
  { header: '联系电话', width: 16 },
  { header: '上级企业', width: 30 },
  { header: '状态', width: 8 },
  { header: '创建时间', width: 20 },
];

async function batch(db: Db, q: Partial<CompanyListQuery>, scope: SQL, beforeId: number | undefined) {
  const where = companyWhere(q, scope);
  const cond = beforeId === undefined ? where : and(where, lt(companies.id, beforeId))!;
  return db
    .select({ c: companies, parentName: parent.compName })
    .from(companies)
    .leftJoin(parent, and(eq(parent.compCode, companies.parentCompCode), isNull(parent.deletedAt)))
    .where(cond)
    .orderBy(desc(companies.id))
    .limit(BATCH);
}

/**
 * SPEC §7.9 listExport: every customer the filter matches (paging ignored, newest first as the
 * list), streamed as xlsx in batches so memory stays flat; money as 2-decimal text with thousands
 * separators (exact, no float), dates YYYY-MM-DD, a 合计 row with the count and Σ registered capital.
 */
export async function streamCompanyExport(
  db: Db,
  q: Partial<CompanyListQuery>,
  reply: FastifyReply,
  scope: SQL,
): Promise<void> {
  // The first batch is read before any byte is sent, so a failure still answers as JSON.
  let rows = await batch(db, q, scope, undefined);
  const out = new PassThrough();
  reply
    .code(200)
    .header('content-type', XLSX_MIME)
    .header('content-disposition', contentDisposition('attachment', COMPANY_EXPORT_FILE_NAME))
    .header('cache-control', 'no-store');
  const produce = async () => {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    const ws = wb.addWorksheet('企业客户', { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = COLUMNS.map((c) => ({ header: c.header, width: c.width }));
    const head = ws.getRow(1);
    head.font = { bold: true };
    head.alignment = { vertical: 'middle', horizontal: 'center' };
    head.commit();
    let n = 0;
    let total = new Decimal(0);
    while (rows.length > 0) {
      for (const { c, parentName } of rows) {
        n++;
        total = total.plus(c.regCapital);
        const row = ws.addRow([
          n,
          c.compCode,
          c.compName,
          c.usccCode,
          COMP_TYPE_LABELS[c.compType as CompType] ?? c.compType,
          (c.roles as CompRole[]).map((r) => COMP_ROLE_LABELS[r] ?? r).join('、'),
          c.legalPerson,
          formatMoney(c.regCapital),
          c.establishDate ?? '',
          regionName(c),
          c.address ?? '',
          c.industry ? (INDUSTRY_LABELS[c.industry as Industry] ?? c.industry) : '',
          c.contactName ?? '',
          c.contactPhone ?? '',
          parentName ?? '',
          COMP_STATE_LABELS[c.state as CompState] ?? c.state,
          formatDateTime(c.createdAt),
        ]);
        row.getCell(8).alignment = { horizontal: 'right' };
        row.commit();
      }
      const last = rows[rows.length - 1]!.c.id;
      rows = rows.length < BATCH ? [] : await batch(db, q, scope, last);
    }
    const sum = ws.addRow(['合计', `${n}户`, '', '', '', '', '', formatMoney(total)]);
    sum.font = { bold: true };
    sum.getCell(8).alignment = { horizontal: 'right' };
    sum.commit();
    ws.commit();
    await wb.commit();
  };
  produce().catch((err: unknown) => {
    reply.log.error({ err }, 'company export failed mid-stream');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  reply.send(out);
}
