/**
 * The zip layer of the xlsx exports alone: writes ROWS rows of sheet XML (12 cells each, as the
 * list exports write them) through one zip implementation into a sink that reads as fast as it
 * can, and prints the time, the output size and the peak RSS. One implementation per process:
 *
 *   npx tsx bench/zip/compare.ts                       # platform/http/zip.ts (zip-stream)
 *   npx tsx bench/zip/compare.ts /tmp/old-zip-stream.ts   # the hand-written writer it replaced
 *     (git show 3b03f26:apps/server/src/platform/http/zip-stream.ts > /tmp/old-zip-stream.ts)
 */
import { PassThrough, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const ROWS = Number(process.env.ROWS ?? 300_000);

interface Entry {
  write(text: string): void;
  drained(): Promise<void>;
  end(): Promise<void>;
}
interface Archive {
  file(name: string, text: string): unknown;
  stream(name: string): Entry;
  finish(): unknown;
}

const old = process.argv[2];
const open: (out: PassThrough) => Archive = old
  ? (out) => {
      const { ZipStream } = mod as { ZipStream: new (o: PassThrough) => Archive };
      return new ZipStream(out);
    }
  : (out) => {
      const { ZipArchive } = mod as { ZipArchive: new (o: PassThrough) => Archive };
      return new ZipArchive(out);
    };
const mod: unknown = await import(
  old
    ? pathToFileURL(resolve(old)).href
    : pathToFileURL(resolve(import.meta.dirname, '../../apps/server/src/platform/http/zip.ts')).href
);

const out = new PassThrough();
let bytes = 0;
const sink = new Writable({
  write(chunk: Buffer, _enc, cb) {
    bytes += chunk.length;
    cb();
  },
});
out.pipe(sink);
let peak = 0;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const started = performance.now();
const zip = open(out);
await zip.file('[Content_Types].xml', '<Types/>');
const sheet = zip.stream('xl/worksheets/sheet1.xml');
let text = '<sheetData>';
for (let r = 1; r <= ROWS; r++) {
  let row = `<row r="${r}">`;
  for (let c = 0; c < 12; c++)
    row +=
      c % 3 === 0
        ? `<c r="${String.fromCharCode(65 + c)}${r}" s="2"><v>${(r * 7919 + c * 104729) % 100000000}.${r % 100}</v></c>`
        : `<c r="${String.fromCharCode(65 + c)}${r}" t="inlineStr"><is><t xml:space="preserve">客户${r % 977}号 第${c}栏</t></is></c>`;
  text += row + '</row>';
  if (text.length >= 64 * 1024) {
    sheet.write(text);
    text = '';
  }
  if (r % 500 === 0) await sheet.drained();
}
sheet.write(text + '</sheetData>');
await sheet.end();
await zip.finish();
if (old) out.end();
await finished(sink);
clearInterval(sample);
console.info(
  JSON.stringify({
    impl: old ? 'hand-written' : 'zip-stream',
    rows: ROWS,
    seconds: +((performance.now() - started) / 1000).toFixed(2),
    mb: +(bytes / 1e6).toFixed(1),
    peakRssMb: Math.round(Math.max(peak, process.memoryUsage().rss) / 1e6),
  }),
);
