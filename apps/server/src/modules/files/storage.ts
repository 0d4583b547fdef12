import { createReadStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where file contents live. Uploads are first written to a local temporary file (hashed and
 * sniffed there); `put` then moves it into the store. Local directory by default, an
 * S3-compatible object store when S3_* is configured (s3.ts).
 */
export interface FileStore {
  kind: 'local' | 's3';
  /** Directory for temporary uploads (always local). */
  tempDir: string;
  /** Takes ownership of `tempPath` (moved or uploaded, then removed). */
  put(key: string, tempPath: string, meta: { size: number; mime: string }): Promise<void>;
  /** The whole content, or the bytes of `range` only. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  remove(key: string): Promise<void>;
  /** At start-up: throws a StartupError naming the setting when the store cannot be used. */
  check(): Promise<void>;
  /** Releases connections when the server closes. */
  close(): void;
}

/** Inclusive byte offsets, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export const byteRangeHeader = (r: ByteRange) => `bytes=${r.start}-${r.end}`;

/** Keys look like `ab/cd/<token>`: two levels of fan-out keep directories small. */
export function storageKeyFor(token: string, sha256: string): string {
  return `${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${token}`;
}

export function localStore(root: string): FileStore {
  const tempDir = join(root, '.tmp');
  const pathOf = (key: string) => {
    if (!/^[0-9a-f]{2}\/[0-9a-f]{2}\/[A-Za-z0-9_-]{20,64}$/.test(key))
      throw new Error(`bad storage key ${key}`);
    return join(root, key);
  };
  return {
    kind: 'local',
    tempDir,
    async put(key, tempPath) {
      const target = pathOf(key);
      await mkdir(join(target, '..'), { recursive: true });
      await rename(tempPath, target);
    },
    async get(key, range) {
      const stream = createReadStream(pathOf(key), range ? { start: range.start, end: range.end } : {});
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
      return stream;
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async check() {
      await mkdir(tempDir, { recursive: true });
    },
    close() {},
  };
}
