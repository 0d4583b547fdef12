import Decimal from 'decimal.js';
import { eq, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { AccountRole } from '@portal/contract/voucher';
import {
  PACKAGE_NO_AUX_ROLES,
  packageFileName,
  type AccountingPackage,
  type packageAccountSaveSchema,
  type PackageAccountRow,
  type packageExportSchema,
} from '@portal/contract/voucher-package';
import { queryRows, type Executor, type Tx } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { moneyCell, streamSheet, type XlsxCell, type XlsxColumn } from '../../platform/http/xlsx';
import { voucherAccounts } from './schema';
import { listAccounts, lockAccount } from './service';

/**
 * 凭证引入 (docs/accounting.md "Export to the accounting package"): a month's vouchers in the
 * import layout of 用友 U8 / T+ or 金蝶 K/3 Cloud, one row per line, with the package's account
 * codes and auxiliaries from the 科目映射. The amounts are the lines' as posted, so the file's
 * sums per package account are that month's movement on the trial balance.
 */

const BATCH = 1000;

const defaultAux = (role: string) => !PACKAGE_NO_AUX_ROLES.includes(role as AccountRole);

// ---- the package columns of the 科目映射

export async function listPackageAccounts(ex: Executor): Promise<PackageAccountRow[]> {
  const rows = await ex.select().from(voucherAccounts);
  const byRole = new Map(rows.map((r) => [r.role, r]));
  const ours = await listAccounts(ex);
  return ours.map((a) => {
    const r = byRole.get(a.role);
    return {
      role: a.role,
      code: a.code,
      name: a.name,
      yonyouCode: r?.yonyouCode ?? null,
      kingdeeCode: r?.kingdeeCode ?? null,
      aux: r?.packageAux ?? defaultAux(a.role),
      version: a.version,
    };
  });
}

/**
 * A role's package account codes and auxiliary. They are read when a month is exported, so a
 * change applies to every export after it, past months included: the package's chart is the
 * office's now, and nothing posted changes.
 */
export async function savePackageAccount(
  tx: Tx,
  body: z.output<typeof packageAccountSaveSchema>,
  actor: Actor,
): Promise<PackageAccountRow> {
  const cmd = { entity: 'voucherAccount', action: 'savePackage', code: body.role };
  return runCommand(tx, actor, cmd, async (_tx, w) => {
    const before = await lockAccount(tx, body.role, body.version);
    await w.touch(voucherAccounts, eq(voucherAccounts.role, body.role), {
      yonyouCode: body.yonyouCode,
      kingdeeCode: body.kingdeeCode,
      packageAux: body.aux,
    });
    await w.audit({
      detail: {
        before: {
          yonyouCode: before.yonyouCode,
          kingdeeCode: before.kingdeeCode,
          aux: before.packageAux ?? defaultAux(before.role),
        },
        after: { yonyouCode: body.yonyouCode, kingdeeCode: body.kingdeeCode, aux: body.aux },
      },
    });
    return (await listPackageAccounts(tx)).find((a) => a.role === body.role)!;
  });
}

/**
 * Our account code → the package's, for a package. A code is the account of the roles mapped to it
 * (the first by role, as the trial balance names it); a code no role is mapped to any more (lines
 * posted before the office changed the mapping) is exported as it was posted. So the package code
 * is a function of the posted code, and a package account's sums are the sums of the trial balance
 * rows it gathers.
 */
export function packageCodes(accounts: PackageAccountRow[], pkg: AccountingPackage) {
  const byCode = new Map<string, PackageAccountRow>();
  for (const a of [...accounts].sort((x, y) => (x.role < y.role ? -1 : 1)))
    if (!byCode.has(a.code)) byCode.set(a.code, a);
  const byRole = new Map(accounts.map((a) => [a.role, a]));
  return {
    code(posted: string): string {
      const a = byCode.get(posted);
      return (a && (pkg === 'yonyou' ? a.yonyouCode : a.kingdeeCode)) || posted;
    },
    aux(posted: string, role: string): boolean {
      const a = byCode.get(posted) ?? byRole.get(role as AccountRole);
      return a ? a.aux : defaultAux(role);
    },
  };
}

// ---- the lines

export interface PackageLine {
  date: string;
  no: number;
  /** The voucher's first line: K/3 Cloud reads the voucher head from it. */
  first: boolean;
  /** The voucher's position in the file (1, 2, …) and the line's in the voucher. */
  seq: number;
  lineNo: number;
  summary: string;
  code: string;
  debit: string;
  credit: string;
  custCode: string;
  contractNo: string;
}

interface Row {
  no: number;
  line_no: number;
  voucher_date: string;
  summary: string;
  role: string;
  account_code: string;
  debit: string;
  credit: string;
  cust_code: string | null;
  contract_no: string | null;
}

/** The month's lines in 凭证字号 order, read 1,000 at a time by (no, line). */
function lineBatches(ex: Executor, period: string, map: ReturnType<typeof packageCodes>) {
  let seq = 0;
  return async (after: { no: number; line: number } | null) => {
    const rows = await queryRows<Row>(
      ex,
      sql`select v.no, l.line_no, to_char(v.voucher_date, 'YYYY-MM-DD') as voucher_date, l.summary, l.role,
                 l.account_code, l.debit::text, l.credit::text, l.cust_code, l.contract_no
            from vouchers v join voucher_lines l on l.voucher_id = v.id
           where v.period = ${period}
             ${after ? sql`and (v.no, l.line_no) > (${after.no}::int, ${after.line}::int)` : sql``}
           order by v.no, l.line_no
           limit ${BATCH}`,
    );
    const lines = rows.map((r): PackageLine => {
      const first = r.line_no === 1;
      if (first) seq++;
      const aux = map.aux(r.account_code, r.role);
      return {
        date: r.voucher_date,
        no: r.no,
        first,
        seq,
        lineNo: r.line_no,
        summary: r.summary,
        code: map.code(r.account_code),
        debit: new Decimal(r.debit).toFixed(2),
        credit: new Decimal(r.credit).toFixed(2),
        custCode: aux ? (r.cust_code ?? '') : '',
        contractNo: aux ? (r.contract_no ?? '') : '',
      };
    });
    const last = rows.at(-1);
    return { lines, next: rows.length === BATCH && last ? { no: last.no, line: last.line_no } : null };
  };
}

// ---- the layouts

/** A money cell, empty for 0.00 on the other side (both packages read an empty side as 0). */
const amount = (v: string) => (new Decimal(v).isZero() ? null : moneyCell(v));

/**
 * 用友 U8 凭证引入 / T+ 凭证导入: every row carries the voucher head (制单日期 + 凭证类别字 +
 * 凭证号 make one voucher); 客户编码 is the customer's code, 项目编码 the contract number.
 */
const YONYOU: XlsxColumn<PackageLine>[] = [
  { header: '制单日期', width: 12, value: (l) => l.date },
  { header: '凭证类别字', width: 10, value: () => '记' },
  { header: '凭证号', width: 8, value: (l) => l.no },
  { header: '附单据数', width: 8, value: () => 0 },
  { header: '摘要', width: 36, value: (l) => l.summary },
  { header: '科目编码', width: 14, value: (l) => l.code },
  { header: '借方金额', width: 16, money: true, value: (l) => amount(l.debit) },
  { header: '贷方金额', width: 16, money: true, value: (l) => amount(l.credit) },
  { header: '数量', width: 8, value: () => null },
  { header: '外币金额', width: 10, value: () => null },
  { header: '汇率', width: 8, value: () => null },
  { header: '结算方式', width: 10, value: () => null },
  { header: '票号', width: 10, value: () => null },
  { header: '票号发生日期', width: 12, value: () => null },
  { header: '部门编码', width: 10, value: () => null },
  { header: '个人编码', width: 10, value: () => null },
  { header: '客户编码', width: 14, value: (l) => l.custCode || null },
  { header: '供应商编码', width: 10, value: () => null },
  { header: '业务员', width: 10, value: () => null },
  { header: '项目大类编码', width: 12, value: () => null },
  { header: '项目编码', width: 18, value: (l) => l.contractNo || null },
];

/** K/3 Cloud's presets of a standard data centre: 凭证字 记, 人民币, 固定汇率. */
const KINGDEE_PRESET = { group: 'PRE001', currency: 'PRE001', rateType: 'HLTX01_SYS' } as const;

/**
 * 金蝶 K/3 Cloud 凭证引入: the first header row holds the field keys, the second their captions;
 * the voucher head (单据头序号, 账簿, 日期, 凭证字, 凭证号) is on the voucher's first line only, its
 * other lines continue it; 核算维度 客户 is the customer's code.
 */
function kingdee(book: string): { key: string; caption: string; col: XlsxColumn<PackageLine> }[] {
  const head = (v: (l: PackageLine) => XlsxCell) => (l: PackageLine) => (l.first ? v(l) : null);
  const col = (
    key: string,
    caption: string,
    width: number,
    value: (l: PackageLine) => XlsxCell,
    money = false,
  ) => ({
    key,
    caption,
    col: { header: key, width, money, value },
  });
  return [
    col(
      'FBillHead(GL_VOUCHER)',
      '*单据头(序号)',
      10,
      head((l) => l.seq),
    ),
    col(
      'FAccountBookID',
      '*账簿(编码)',
      10,
      head(() => book),
    ),
    col(
      'FDate',
      '*日期',
      12,
      head((l) => l.date),
    ),
    col(
      'FVOUCHERGROUPID',
      '*凭证字(编码)',
      10,
      head(() => KINGDEE_PRESET.group),
    ),
    col(
      'FVOUCHERGROUPNO',
      '凭证号',
      8,
      head((l) => l.no),
    ),
    col('FEntity', '*分录(序号)', 8, (l) => l.lineNo),
    col('FEXPLANATION', '*摘要', 36, (l) => l.summary),
    col('FACCOUNTID', '*科目编码(编码)', 14, (l) => l.code),
    col('FDetailID#FFLEX6', '核算维度.客户(编码)', 14, (l) => l.custCode || null),
    col('FCURRENCYID', '*币别(编码)', 10, () => KINGDEE_PRESET.currency),
    col('FEXCHANGERATETYPE', '*汇率类型(编码)', 12, () => KINGDEE_PRESET.rateType),
    col('FEXCHANGERATE', '汇率', 8, () => 1),
    col('FAMOUNTFOR', '原币金额', 16, (l) => moneyCell(new Decimal(l.debit).plus(l.credit).toFixed(2)), true),
    col('FDEBIT', '借方金额', 16, (l) => amount(l.debit), true),
    col('FCREDIT', '贷方金额', 16, (l) => amount(l.credit), true),
  ];
}

/**
 * Answers with the month's import xlsx for the package chosen. The first batch is read before any
 * byte goes out, so a failure there answers as JSON; then batch by batch as the client takes them.
 */
export async function streamPackage(
  reply: FastifyReply,
  ex: Executor,
  q: z.output<typeof packageExportSchema>,
): Promise<void> {
  const map = packageCodes(await listPackageAccounts(ex), q.package);
  const next = lineBatches(ex, q.period, map);
  let batch = await next(null);
  const k = q.package === 'kingdee' ? kingdee(q.bookCode!) : null;
  streamSheet(
    reply,
    {
      fileName: packageFileName(q.package, q.period),
      sheetName: k ? '凭证' : '凭证引入',
      columns: k ? k.map((c) => c.col) : YONYOU,
      what: `${q.package} voucher import xlsx`,
    },
    async (w) => {
      if (k) w.cells(k.map((c) => c.caption));
      for (;;) {
        for (const l of batch.lines) w.record(l);
        if (!batch.next) break;
        await w.drained();
        batch = await next(batch.next);
      }
    },
  );
}
