import type ExcelJS from 'exceljs';
import type { FastifyRequest } from 'fastify';
import { STATUS } from '@portal/contract/api';
import { uploadTooLargeMessage } from '@portal/contract/files';
import { AppError, badInput } from './errors';

/**
 * Reading uploaded spreadsheets for the import previews (receivables, plans, bank statements):
 * the first sheet, its header row mapped to keys, every non-empty row as trimmed text.
 */

/**
 * exceljs, loaded on the first spreadsheet rather than at start: the module alone costs a start
 * (and every server test file's worker) about 0.3 s of CPU (bench/README.md "CI time").
 */
async function excel(): Promise<typeof ExcelJS> {
  return (await import('exceljs')).default;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as the text a person typed: dates as YYYY-MM-DD, numbers as written, formulas by result. */
export function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
  // The number as written, never rounded: 100.123 stays 100.123, so a money column refuses it
  // (docs/protocol.md "Imports"). 15 significant digits drop binary noise (0.1 + 0.2) only.
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(15)));
  if (typeof v === 'string' || typeof v === 'boolean') return String(v).trim();
  if (typeof v === 'object') {
    if ('result' in v && v.result !== undefined) return cellText(v.result as ExcelJS.CellValue);
    if ('richText' in v)
      return v.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if ('text' in v) return String(v.text).trim();
  }
  return '';
}

export interface SheetRow<K extends string> {
  /** The spreadsheet's row number (the header is row 1). */
  row: number;
  item: Partial<Record<K, string>>;
}

/** Which sheet readSheet reads (the first by default) and whether it may have no data row. */
export interface SheetOptions {
  /** The sheet's name: 400 `表格中缺少工作表「name」` when the file has none by that name. */
  sheet?: string;
  allowEmpty?: boolean;
}

/**
 * The rows of the first sheet (or the one named) as `{ row, item }`, keys from `headers` (header
 * text without spaces or '*' → key). 400 when the file is not xlsx, a required column is missing,
 * there is no data row (unless `allowEmpty`), or there are more than `maxRows`.
 */
export async function readSheet<K extends string>(
  buf: Buffer,
  headers: Readonly<Record<string, K>>,
  required: readonly { key: K; label: string }[],
  maxRows: number,
  opts: SheetOptions = {},
): Promise<SheetRow<K>[]> {
  const wb = new (await excel()).Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw badInput('文件不是有效的xlsx表格');
  }
  const ws = opts.sheet === undefined ? wb.worksheets[0] : wb.getWorksheet(opts.sheet);
  if (!ws)
    throw badInput(opts.sheet === undefined ? '表格中没有工作表' : `表格中缺少工作表「${opts.sheet}」`);
  const columns = new Map<number, K>();
  ws.getRow(1).eachCell((cell, col) => {
    const key = headers[cellText(cell.value).replace(/\s|\*/g, '')];
    if (key) columns.set(col, key);
  });
  for (const need of required) {
    if (![...columns.values()].includes(need.key)) throw badInput(`表头缺少列：${need.label}`);
  }
  const rows: SheetRow<K>[] = [];
  for (let r = 2; r <= ws.rowCount; r++) {
    const item: Partial<Record<K, string>> = {};
    let any = false;
    for (const [col, key] of columns) {
      const t = cellText(ws.getRow(r).getCell(col).value);
      if (t) {
        item[key] = t;
        any = true;
      }
    }
    if (!any) continue;
    rows.push({ row: r, item });
    if (rows.length > maxRows) throw badInput(`导入行数不能超过${maxRows}行`);
  }
  if (rows.length === 0 && !opts.allowEmpty) throw badInput('表格中没有数据行');
  return rows;
}

/**
 * The xlsx of a multipart upload (field "file") and its other fields. `limitBytes` is the upload
 * limit in force now (参数设置 may have changed it since the start); a file over it is refused
 * naming the limit, as the file store does (「上传文件超过大小限制（最大50MB）」).
 */
export async function readXlsxUpload(
  req: FastifyRequest,
  limitBytes: number,
): Promise<{ buf: Buffer; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw badInput('请以multipart/form-data方式上传xlsx文件');
  const part = await req.file({ limits: { fileSize: limitBytes } });
  if (!part) throw badInput('请选择要导入的文件');
  if (!/\.xlsx$/i.test(part.filename)) throw badInput('只能导入xlsx格式的文件');
  const buf = await part.toBuffer().catch((err: unknown) => {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError(STATUS.tooLarge, uploadTooLargeMessage(limitBytes));
    throw err;
  });
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(part.fields)) {
    if (v && !Array.isArray(v) && v.type === 'field') fields[k] = String(v.value);
  }
  return { buf, fields };
}

/**
 * An import's 下载模板: one sheet whose first row is `headers` (bold, frozen, wide enough to read),
 * the names `readSheet` maps back to keys (docs/protocol.md "Imports").
 */
export async function templateXlsx(headers: readonly string[]): Promise<Buffer> {
  return templateWorkbook([{ name: '导入', headers }]);
}

/** A template of several sheets, each laid out as templateXlsx's (an import that reads them by name). */
export async function templateWorkbook(
  sheets: readonly { name: string; headers: readonly string[] }[],
): Promise<Buffer> {
  const wb = new (await excel()).Workbook();
  for (const s of sheets) {
    const ws = wb.addWorksheet(s.name, { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = s.headers.map((h) => ({ header: h, width: Math.max(12, h.length * 3) }));
    ws.getRow(1).font = { bold: true };
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
