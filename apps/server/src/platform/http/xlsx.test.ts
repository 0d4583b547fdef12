import { describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { crc32, inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import Fastify from 'fastify';
import { escapeXml, MONEY_FMT, streamSheet } from './xlsx';

/**
 * The streamed xlsx writer (docs/architecture.md "List filters and exports"): a zip written front to back, read
 * back here entry by entry with its CRC checked, and as a workbook by a real xlsx reader.
 */

/** The entries of a zip by its central directory, each inflated and its CRC and size checked. */
function unzip(zip: Buffer): Map<string, string> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBeGreaterThan(0);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const crc = zip.readUInt32LE(at + 16);
    const packed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString();
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = inflateRawSync(zip.subarray(dataAt, dataAt + packed));
    expect([raw.length, crc32(raw)], name).toEqual([size, crc]);
    out.set(name, raw.toString());
    at += 46 + nameLength;
  }
  return out;
}

interface Row {
  code: string;
  note: string;
  amount: number | null;
}

/** A Fastify app answering the sheet of `batches` of rows (a drained() between batches). */
async function sheet(batches: Row[][], opts: { titles?: string[]; cancelAfter?: number } = {}) {
  const app = Fastify({ logger: false });
  const progress = { batches: 0, ended: false, failed: false };
  app.post('/x', (_req, reply) => {
    streamSheet<Row>(
      reply,
      {
        fileName: '测试.xlsx',
        sheetName: '测试<表>',
        columns: [
          { header: '编号', width: 12, value: (r) => r.code },
          { header: '说明', value: (r) => r.note },
          { header: '金额', money: true, value: (r) => r.amount },
        ],
        ...(opts.titles ? { titles: opts.titles } : {}),
        freeze: true,
        what: 'test',
      },
      async (w) => {
        try {
          for (const [i, b] of batches.entries()) {
            progress.batches++;
            for (const r of b) w.record(r);
            await w.drained();
            if (i === opts.cancelAfter) reply.raw.destroy();
          }
          w.cells(['合计', `${batches.flat().length}笔`, 1.5], true);
        } catch (err) {
          progress.failed = true;
          throw err;
        } finally {
          progress.ended = true;
        }
      },
    );
    return reply;
  });
  return { app, progress };
}

describe('the streamed xlsx writer', () => {
  it('writes a zip whose every entry inflates to its CRC and size, and a workbook a reader opens', async () => {
    const batches = Array.from({ length: 30 }, (_, b) =>
      Array.from({ length: 200 }, (_, i) => ({
        code: `C${b * 200 + i}`,
        note: `第${b}批 <a> & "b" \u0001`,
        amount: i % 7 === 0 ? null : b * 1000 + i + 0.25,
      })),
    );
    const { app } = await sheet(batches, { titles: ['标题 一', '标题 二'] });
    const res = await app.inject({ method: 'POST', url: '/x' });
    await app.close();
    expect(res.statusCode).toBe(200);
    const parts = unzip(res.rawPayload);
    expect([...parts.keys()]).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    expect(parts.get('xl/workbook.xml')).toContain('name="测试&lt;表&gt;"');

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(2 + 1 + 6000 + 1);
    expect(ws.getRow(1).getCell(1).value).toBe('标题 一');
    expect(ws.getRow(1).font?.bold ?? ws.getRow(1).getCell(1).font?.bold).toBe(true);
    expect((ws.getRow(3).values as unknown[]).slice(1)).toEqual(['编号', '说明', '金额']);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 3 });
    expect(ws.getColumn(1).width).toBe(12);
    const second = ws.getRow(5);
    // The character XML cannot hold is dropped; the markup characters come back as written.
    expect([second.getCell(1).value, second.getCell(2).value, second.getCell(3).value]).toEqual([
      'C1',
      '第0批 <a> & "b" ',
      1.25,
    ]);
    expect(second.getCell(3).numFmt).toBe(MONEY_FMT);
    expect(ws.getRow(4).getCell(3).value).toBeNull();
    const last = ws.getRow(ws.rowCount);
    expect([last.getCell(1).value, last.getCell(2).value, last.getCell(3).value]).toEqual([
      '合计',
      '6000笔',
      1.5,
    ]);
    expect(last.getCell(3).font?.bold).toBe(true);
    expect(last.getCell(3).numFmt).toBe(MONEY_FMT);
  });

  it('stops the producer when the download is cancelled, without an unhandled error', async () => {
    const batches = Array.from({ length: 50 }, (_, b) =>
      Array.from({ length: 500 }, (_, i) => ({ code: `C${b}-${i}`, note: 'x'.repeat(200), amount: i })),
    );
    const { app, progress } = await sheet(batches, { cancelAfter: 2 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/x`, { method: 'POST' });
    const read = res.arrayBuffer().then(
      () => 'complete',
      () => 'cut',
    );
    expect(await read).toBe('cut');
    await expect.poll(() => progress.ended).toBe(true);
    // It failed at a write soon after the cut instead of reading the other 47 batches.
    expect(progress.failed).toBe(true);
    expect(progress.batches).toBeLessThan(10);
    await Promise.race([once(app.server, 'close'), app.close()]);
  });

  it('escapes the markup characters and drops what XML cannot hold', () => {
    expect(escapeXml('a<b>&"c"\u0000\u000b\t\n')).toBe('a&lt;b&gt;&amp;&quot;c&quot;\t\n');
    expect(escapeXml('合同 😀')).toBe('合同 😀');
  });
});
