import ExcelJS from 'exceljs';
import type { FastifyRequest } from 'fastify';
import { badInput } from './errors';

/**
 * Reading uploaded spreadsheets for the import previews (receivables, plans, bank statements):
 * the first sheet, its header row mapped to keys, every non-empty row as trimmed text.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as the text a person typed: dates as YYYY-MM-DD, numbers as written, formulas by result. */
export function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(2);
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

/**
 * The rows of the first sheet as `{ row, item }`, keys from `headers` (header text without
 * spaces or '*' → key). 400 when the file is not xlsx, a required column is missing, there is no
 * data row, or there are more than `maxRows`.
 */
export async function readSheet<K extends string>(
  buf: Buffer,
  headers: Readonly<Record<string, K>>,
  required: readonly { key: K; label: string }[],
  maxRows: number,
): Promise<SheetRow<K>[]> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw badInput('文件不是有效的xlsx表格');
  }
  const ws = wb.worksheets[0];
  if (!ws) throw badInput('表格中没有工作表');
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
  if (rows.length === 0) throw badInput('表格中没有数据行');
  return rows;
}

/** The xlsx of a multipart upload (field "file") and its other fields. */
export async function readXlsxUpload(
  req: FastifyRequest,
): Promise<{ buf: Buffer; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw badInput('请以multipart/form-data方式上传xlsx文件');
  const part = await req.file();
  if (!part) throw badInput('请选择要导入的文件');
  if (!/\.xlsx$/i.test(part.filename)) throw badInput('只能导入xlsx格式的文件');
  const buf = await part.toBuffer();
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(part.fields)) {
    if (v && !Array.isArray(v) && v.type === 'field') fields[k] = String(v.value);
  }
  return { buf, fields };
}
