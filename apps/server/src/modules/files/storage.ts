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
  get(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
}

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
    async get(key) {
      const stream = createReadStream(pathOf(key));
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
      return stream;
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
