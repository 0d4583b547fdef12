import Decimal from 'decimal.js';
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { contentDisposition, XLSX_MIME } from './download';
import { ZipArchive } from './zip';
import { metrics } from '../metrics';

/**
 * The streamed xlsx of the exports (docs/architecture.md "List filters and exports"): one sheet written row by row
 * as SpreadsheetML text into a zip stream, so that the server holds one batch of rows and no
 * object per cell, whatever the size of the file. Money cells are numbers shown with two decimals,
 * so that Excel sums the column.
 */

/** Money cells are numbers shown with two decimals and thousands separators. */
export const MONEY_FMT = '#,##0.00';

export type XlsxCell = string | number | null;

export interface XlsxColumn<R> {
  header: string;
  /** Characters; default 16. */
  width?: number;
  money?: boolean;
  value: (r: R) => XlsxCell;
}

/**
 * A money string as the number Excel stores: the file format holds IEEE doubles, so the conversion
 * happens here, at the edge, and only for display. A figure the double would not give back to the
 * cent stays text rather than change.
 */
export function moneyCell(v: string | null | undefined): XlsxCell {
  if (v === null || v === undefined || v === '') return null;
  const exact = new Decimal(v).toFixed(2);
  const cell = Number(exact);
  return cell.toFixed(2) === exact ? cell : exact;
}

/** What the body of a sheet is written with. */
export interface SheetWriter<R> {
  /** One row of the columns' values for `r`. */
  record(r: R): void;
  /** A row of cells in column order (money columns formatted), bold for totals. */
  cells(values: XlsxCell[], bold?: boolean): void;
  /** A line of text in the first cell. */
  line(text: string, bold?: boolean): void;
  /**
   * Resolves once the client has taken what was written so far: await it before reading the next
   * batch, so a slow reader holds the producer back instead of the batches piling up in memory.
   */
  drained(): Promise<void>;
}

export interface SheetSpec<R> {
  fileName: string;
  sheetName: string;
  columns: readonly XlsxColumn<R>[];
  /** Bold lines above the header row. */
  titles?: readonly string[];
  /** Keep the titles and the header in view while scrolling. */
  freeze?: boolean;
  /** For the server log when the stream fails after the headers went out. */
  what: string;
}

/** The cell formats of styles.xml's cellXfs, by index. */
const STYLE = { plain: 0, bold: 1, money: 2, moneyBold: 3, header: 4 } as const;
const MONEY_FMT_ID = 164;

const STYLES_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="${MONEY_FMT_ID}" formatCode="${MONEY_FMT}"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="${MONEY_FMT_ID}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="${MONEY_FMT_ID}" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1"><alignment horizontal="center" vertical="center"/></xf></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

const CONTENT_TYPES_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;

const ROOT_RELS_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

const WORKBOOK_RELS_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;

const workbookXml = (sheetName: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

/** Text as XML character data: the markup characters escaped, characters XML cannot hold dropped. */
export function escapeXml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** The column letters of a 1-based column number: 1 → A, 27 → AA. */
function columnName(n: number): string {
  let s = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(65 + ((k - 1) % 26)) + s;
  return s;
}

/** A cell's XML, or '' for an empty cell without a format. */
function cellXml(ref: string, v: XlsxCell, style: number): string {
  const s = style ? ` s="${style}"` : '';
  if (v === null || v === '') return style ? `<c r="${ref}"${s}/>` : '';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`xlsx: ${v} is not a number a sheet can hold`);
    return `<c r="${ref}"${s}><v>${v}</v></c>`;
  }
  return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${escapeXml(v)}</t></is></c>`;
}

/** Text buffered before it goes to the deflater: few large writes, not one per cell. */
const FLUSH_AT = 64 * 1024;

/**
 * Answers with the sheet: titles, the header row, then whatever `body` writes (it may await its
 * next batch between rows). Read the first batch before calling, so that a failure there still
 * answers as JSON; a failure later ends the download broken, and is logged.
 */
export function streamSheet<R>(
  reply: FastifyReply,
  spec: SheetSpec<R>,
  body: (w: SheetWriter<R>) => Promise<void> | void,
): void {
  const out = new PassThrough();
  const timed = metrics.exportStarted();
  reply
    .code(200)
    .header('content-type', XLSX_MIME)
    .header('content-disposition', contentDisposition('attachment', spec.fileName))
    .header('cache-control', 'no-store');
  const titles = spec.titles ?? [];
  const letters = spec.columns.map((_, i) => columnName(i + 1));
  const produce = async () => {
    const zip = new ZipArchive(out);
    await zip.file('[Content_Types].xml', CONTENT_TYPES_XML);
    await zip.file('_rels/.rels', ROOT_RELS_XML);
    await zip.file('xl/workbook.xml', workbookXml(spec.sheetName));
    await zip.file('xl/_rels/workbook.xml.rels', WORKBOOK_RELS_XML);
    await zip.file('xl/styles.xml', STYLES_XML);
    const sheet = zip.stream('xl/worksheets/sheet1.xml');
    const frozen = titles.length + 1;
    const view = spec.freeze
      ? `<sheetView workbookViewId="0"><pane ySplit="${frozen}" topLeftCell="A${frozen + 1}" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView>`
      : '<sheetView workbookViewId="0"/>';
    const cols = spec.columns
      .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width ?? 16}" customWidth="1"/>`)
      .join('');
    let text = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheetViews>${view}</sheetViews><sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>`;
    let rowNo = 0;
    const flush = () => {
      sheet.write(text);
      text = '';
    };
    const row = (cells: string) => {
      rowNo++;
      text += `<row r="${rowNo}">${cells}</row>`;
      if (text.length >= FLUSH_AT) flush();
    };
    const line = (s: string, bold = false) =>
      row(cellXml(`A${rowNo + 1}`, s, bold ? STYLE.bold : STYLE.plain));
    const cells = (values: XlsxCell[], bold = false) => {
      const r = rowNo + 1;
      let xml = '';
      values.forEach((v, i) => {
        const money = spec.columns[i]?.money;
        const style = money ? (bold ? STYLE.moneyBold : STYLE.money) : bold ? STYLE.bold : STYLE.plain;
        xml += cellXml(`${letters[i] ?? columnName(i + 1)}${r}`, v, style);
      });
      row(xml);
    };
    for (const t of titles) line(t, true);
    row(spec.columns.map((c, i) => cellXml(`${letters[i]}${rowNo + 1}`, c.header, STYLE.header)).join(''));
    await body({
      record: (r) => cells(spec.columns.map((c) => c.value(r))),
      cells,
      line,
      drained: async () => {
        flush();
        // Let the deflater and the reply run on what the last batch wrote.
        await new Promise<void>((r) => setImmediate(r));
        await sheet.drained();
      },
    });
    text += '</sheetData></worksheet>';
    flush();
    await sheet.end();
    await zip.finish();
    timed('ok');
  };
  produce().catch((err: unknown) => {
    timed('failed');
    reply.log.error({ err }, `${spec.what} export failed mid-stream`);
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  reply.send(out);
}
