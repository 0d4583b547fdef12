import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { crc32, createDeflateRaw, deflateRawSync, type DeflateRaw } from 'node:zlib';

/**
 * A zip archive written front to back into a stream (docs/architecture.md "List filters and exports"): each entry is
 * deflated as it is written, its sizes and CRC follow it in a data descriptor, and the central
 * directory closes the archive. Nothing of an entry is kept once it is written, so an entry of any
 * length costs the memory of the deflater's window. Sizes are 32-bit (no zip64): an entry or the
 * archive past 4 GiB is refused rather than written wrong.
 */

const LIMIT = 0xffffffff;
/** Bit 3: sizes and CRC in a data descriptor after the data; bit 11: names are UTF-8. */
const FLAGS = 0x0808;
const DEFLATE = 8;
const VERSION = 20;

interface Entry {
  name: Buffer;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
}

/** MS-DOS time and date of a moment, as the zip headers store them (local time, 2-second steps). */
function dosStamp(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** Resolves once `s` is below its high-water mark, or closed (a cancelled download). */
export async function waitForRoom(s: Writable | DeflateRaw): Promise<void> {
  while (s.writableNeedDrain && !s.destroyed) {
    // The listener of the event that did not come is removed: this runs once per batch.
    const done = new AbortController();
    try {
      await Promise.race([
        once(s, 'drain', { signal: done.signal }),
        once(s, 'close', { signal: done.signal }),
      ]);
    } finally {
      done.abort();
    }
  }
}

/** One entry being written: text goes through the deflater, its CRC and size counted on the way. */
export interface ZipEntryWriter {
  write(text: string): void;
  /** Resolves once the deflater and the archive's stream have room again (backpressure). */
  drained(): Promise<void>;
  end(): Promise<void>;
}

export class ZipStream {
  private readonly entries: Entry[] = [];
  private offset = 0;
  private readonly stamp = dosStamp(new Date());

  constructor(private readonly out: Writable) {}

  private put(b: Buffer): void {
    if (this.out.destroyed) throw new Error('zip: the stream was closed (the download was cancelled)');
    this.offset += b.length;
    if (this.offset > LIMIT) throw new Error('zip: archive larger than 4 GiB');
    this.out.write(b);
  }

  private header(name: Buffer): void {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(VERSION, 4);
    h.writeUInt16LE(FLAGS, 6);
    h.writeUInt16LE(DEFLATE, 8);
    h.writeUInt16LE(this.stamp.time, 10);
    h.writeUInt16LE(this.stamp.date, 12);
    // CRC and sizes (14..25) stay 0: the data descriptor carries them.
    h.writeUInt16LE(name.length, 26);
    this.put(Buffer.concat([h, name]));
  }

  private descriptor(e: Entry): void {
    const d = Buffer.alloc(16);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(e.crc, 4);
    d.writeUInt32LE(e.compressed, 8);
    d.writeUInt32LE(e.size, 12);
    this.put(d);
    this.entries.push(e);
  }

  /** A small entry held whole. */
  file(name: string, text: string): void {
    const entry = { name: Buffer.from(name), offset: this.offset, crc: 0, compressed: 0, size: 0 };
    const raw = Buffer.from(text);
    const packed = deflateRawSync(raw);
    this.header(entry.name);
    this.put(packed);
    this.descriptor({ ...entry, crc: crc32(raw), compressed: packed.length, size: raw.length });
  }

  /** A large entry, written piece by piece. Write nothing else to the archive until it ends. */
  stream(name: string): ZipEntryWriter {
    const entry: Entry = { name: Buffer.from(name), offset: this.offset, crc: 0, compressed: 0, size: 0 };
    this.header(entry.name);
    const deflate: DeflateRaw = createDeflateRaw();
    deflate.on('data', (chunk: Buffer) => {
      // A cancelled download: stop here; the next write or end() tells the producer.
      if (this.out.destroyed) return void deflate.destroy();
      entry.compressed += chunk.length;
      try {
        this.put(chunk);
      } catch (err) {
        // Past the 32-bit sizes: fail the entry (the producer's next write says so), never throw
        // out of an event handler.
        return void deflate.destroy(err instanceof Error ? err : new Error(String(err)));
      }
      // The archive's stream is full: stop deflating until it drains.
      if (this.out.writableNeedDrain) {
        deflate.pause();
        this.out.once('drain', () => deflate.resume());
      }
    });
    const done = Promise.race([
      once(deflate, 'end'),
      once(deflate, 'close').then(() => {
        throw new Error('zip: the stream was closed (the download was cancelled)');
      }),
    ]);
    // Not awaited until end(): a rejection before then must not count as unhandled.
    done.catch(() => undefined);
    return {
      write: (text) => {
        if (this.out.destroyed || deflate.destroyed)
          throw new Error('zip: the stream was closed (the download was cancelled)');
        const b = Buffer.from(text);
        entry.crc = crc32(b, entry.crc);
        entry.size += b.length;
        if (entry.size > LIMIT) throw new Error('zip: entry larger than 4 GiB');
        deflate.write(b);
      },
      drained: async () => {
        await waitForRoom(deflate);
        await waitForRoom(this.out);
      },
      end: async () => {
        deflate.end();
        await done;
        this.descriptor(entry);
      },
    };
  }

  /** Writes the central directory; the caller ends the stream. */
  finish(): void {
    const start = this.offset;
    for (const e of this.entries) {
      const c = Buffer.alloc(46);
      c.writeUInt32LE(0x02014b50, 0);
      c.writeUInt16LE(VERSION, 4);
      c.writeUInt16LE(VERSION, 6);
      c.writeUInt16LE(FLAGS, 8);
      c.writeUInt16LE(DEFLATE, 10);
      c.writeUInt16LE(this.stamp.time, 12);
      c.writeUInt16LE(this.stamp.date, 14);
      c.writeUInt32LE(e.crc, 16);
      c.writeUInt32LE(e.compressed, 20);
      c.writeUInt32LE(e.size, 24);
      c.writeUInt16LE(e.name.length, 28);
      c.writeUInt32LE(e.offset, 42);
      this.put(Buffer.concat([c, e.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.put(end);
  }
}
