import { open } from 'node:fs/promises';

/** A kind of content the portal accepts, recognised by its bytes (never by the file name). */
export interface Sniffed {
  mime: string;
  /** Extensions a file of this kind may carry; the first is used when the name has none of them. */
  exts: readonly string[];
}

const PDF: Sniffed = { mime: 'application/pdf', exts: ['pdf'] };
const PNG: Sniffed = { mime: 'image/png', exts: ['png'] };
const JPG: Sniffed = { mime: 'image/jpeg', exts: ['jpg', 'jpeg'] };
const GIF: Sniffed = { mime: 'image/gif', exts: ['gif'] };
const XLSX: Sniffed = {
  mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  exts: ['xlsx'],
};
const DOCX: Sniffed = {
  mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  exts: ['docx'],
};
const CSV: Sniffed = { mime: 'text/csv', exts: ['csv'] };
const TXT: Sniffed = { mime: 'text/plain', exts: ['txt'] };

const startsWith = (buf: Buffer, bytes: number[]) => bytes.every((b, i) => buf[i] === b);

/** Names of the entries of a zip's central directory (read from the end of the file). */
export async function zipEntryNames(path: string, size: number): Promise<string[] | null> {
  const fh = await open(path, 'r');
  try {
    const tailLen = Math.min(size, 65_535 + 22);
    const tail = Buffer.alloc(tailLen);
    await fh.read(tail, 0, tailLen, size - tailLen);
    let eocd = -1;
    for (let i = tailLen - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) return null;
    const count = tail.readUInt16LE(eocd + 10);
    const cdSize = tail.readUInt32LE(eocd + 12);
    const cdOffset = tail.readUInt32LE(eocd + 16);
    if (cdOffset + cdSize > size || cdSize > 16 * 1024 * 1024) return null;
    const cd = Buffer.alloc(cdSize);
    await fh.read(cd, 0, cdSize, cdOffset);
    const names: string[] = [];
    let at = 0;
    for (let n = 0; n < count && at + 46 <= cd.length; n++) {
      if (cd.readUInt32LE(at) !== 0x02014b50) return null;
      const nameLen = cd.readUInt16LE(at + 28);
      const extraLen = cd.readUInt16LE(at + 30);
      const commentLen = cd.readUInt16LE(at + 32);
      names.push(cd.toString('utf8', at + 46, at + 46 + nameLen));
      at += 46 + nameLen + extraLen + commentLen;
    }
    return names;
  } finally {
    await fh.close();
  }
}

/** True when the whole file is UTF-8 (BOM allowed) text without NUL or other binary control bytes. */
async function isText(path: string, size: number): Promise<boolean> {
  if (size === 0 || size > 20 * 1024 * 1024) return false;
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(size);
    await fh.read(buf, 0, size, 0);
    for (const b of buf) if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b) || b === 0x7f) return false;
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  } finally {
    await fh.close();
  }
}

/**
 * What the content of a stored upload is: pdf, png, jpg, gif, xlsx/docx (zip with their parts) or
 * plain UTF-8 text (only for a .txt or .csv name). Anything else is null, and refused.
 */
export async function sniff(path: string, head: Buffer, size: number, name: string): Promise<Sniffed | null> {
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return PDF; // %PDF-
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (startsWith(head, [0xff, 0xd8, 0xff])) return JPG;
  if (
    head.subarray(0, 6).toString('latin1') === 'GIF87a' ||
    head.subarray(0, 6).toString('latin1') === 'GIF89a'
  )
    return GIF;
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    const names = await zipEntryNames(path, size);
    if (!names || !names.includes('[Content_Types].xml')) return null;
    if (names.includes('xl/workbook.xml')) return XLSX;
    if (names.includes('word/document.xml')) return DOCX;
    return null;
  }
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  if ((ext === 'csv' || ext === 'txt') && (await isText(path, size))) return ext === 'csv' ? CSV : TXT;
  return null;
}

/**
 * A file name safe to store and to send back: no directories, no control or reserved characters,
 * at most 200 characters, and an extension that matches the sniffed content.
 */
export function sanitizeFileName(raw: string | undefined, kind: Sniffed): string {
  let name = (raw ?? '').normalize('NFC');
  name = name.split(/[\\/]/).pop() ?? '';
  name = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  name = name.replace(/^\.+/, '');
  let ext = /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1]?.toLowerCase() ?? '';
  let stem = ext ? name.slice(0, -(ext.length + 1)) : name;
  if (!kind.exts.includes(ext)) {
    // Keep what the user typed in the stem, but the extension says what the content really is.
    stem = name;
    ext = kind.exts[0]!;
  }
  stem = [...stem].slice(0, 190).join('').trim() || 'file';
  return `${stem}.${ext}`;
}
