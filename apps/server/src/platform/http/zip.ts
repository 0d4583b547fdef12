import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { PassThrough, type Writable } from 'node:stream';
import ZipStream from 'zip-stream';

/**
 * A zip archive written front to back into a stream (docs/architecture.md "List filters and
 * exports") through archiver's `zip-stream` (the major that archiver, and so ExcelJS, also uses): each entry is deflated as it is written, with ZIP64
 * headers where an entry or the archive passes 4 GiB. Nothing of an entry is kept once it is
 * written, so an entry of any length costs the memory of the deflater's window and one buffer.
 */

const CANCELLED = 'zip: the stream was closed (the download was cancelled)';

/** Resolves once `s` is below its high-water mark, or closed (a cancelled download). */
export async function waitForRoom(s: Writable): Promise<void> {
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

/** One entry being written, piece by piece. */
export interface ZipEntryWriter {
  write(text: string): void;
  /** Resolves once the entry and the archive's stream have room again (backpressure). */
  drained(): Promise<void>;
  end(): Promise<void>;
}

export class ZipArchive {
  private readonly zip = new ZipStream({ forceLocalTime: true });
  private readonly failed: Promise<never>;
  /** The entry being written: a cancelled download closes it, so a producer waiting on it wakes. */
  private current: PassThrough | undefined;
  /** The whole archive went out: the stream closing after it is no cancellation. */
  private ended = false;

  constructor(private readonly out: Writable) {
    this.failed = new Promise<never>((_, reject) => {
      this.zip.on('error', reject);
      this.zip.on('end', () => (this.ended = true));
      out.on('close', () => {
        if (this.ended) return;
        this.current?.destroy();
        this.zip.destroy();
        reject(new Error(CANCELLED));
      });
    });
    // Awaited only through the calls below: a rejection before then is not unhandled.
    this.failed.catch(() => undefined);
    this.zip.pipe(out);
  }

  private add(source: string | PassThrough, name: string): Promise<void> {
    if (this.out.destroyed) return Promise.reject(new Error(CANCELLED));
    const added = new Promise<void>((resolve, reject) => {
      this.zip.entry(source, { name }, (err) => (err ? reject(err) : resolve()));
    });
    return Promise.race([added, this.failed]);
  }

  /** A small entry held whole. */
  file(name: string, text: string): Promise<void> {
    return this.add(text, name);
  }

  /** A large entry. Add nothing else to the archive until it ends. */
  stream(name: string): ZipEntryWriter {
    const entry = new PassThrough();
    this.current = entry;
    const done = this.add(entry, name);
    done.catch(() => undefined);
    return {
      write: (text) => {
        if (this.out.destroyed || entry.destroyed) throw new Error(CANCELLED);
        entry.write(text);
      },
      drained: async () => {
        await waitForRoom(entry);
        await waitForRoom(this.out);
        if (this.out.destroyed) throw new Error(CANCELLED);
      },
      end: async () => {
        entry.end();
        await done;
        this.current = undefined;
      },
    };
  }

  /** Writes the central directory and ends the stream once the reader has taken it all. */
  async finish(): Promise<void> {
    this.zip.finalize();
    await Promise.race([finished(this.out), this.failed]);
  }
}
