import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_PATHS, type FileInfo } from '@portal/contract/files';
import { loadConfig, type Config, type S3Config } from '../../platform/config';
import { backup, restore } from '../../platform/backup';
import { StartupError } from '../../platform/startup';
import type { Portal } from '../../server';
import { onPostgres, TEST_ADMIN_PASSWORD, type TestClient, withStartedPortal } from '../../testing/harness';
import { createPgDatabase } from '../../testing/process';
import { S3RVER_KEY, startS3Server, type TestS3Server } from '../../testing/s3-server';
import { s3Client, s3Store } from './s3';

/**
 * Object storage through the AWS SDK against an S3-compatible server (s3rver, in a child process):
 * streaming both ways, ranges, deletes, start-up checks, timeouts with bounded retries, and a
 * database restored from backup finding its files in the bucket (docs/operations.md "Object storage").
 */
let s3: TestS3Server;
let scratch: string;
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
  scratch = mkdtempSync(join(tmpdir(), 'portal-s3-test-'));
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  await s3?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const settings = (over: Partial<S3Config> = {}): S3Config => ({
  endpoint: s3.endpoint,
  bucket: s3.bucket,
  region: 'us-east-1',
  accessKeyId: S3RVER_KEY,
  secretAccessKey: S3RVER_KEY,
  prefix: 'files/',
  timeoutMs: 10_000,
  maxAttempts: 3,
  ...over,
});

async function drain(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('S3 store (AWS SDK) against an S3-compatible server', () => {
  it('uploads, downloads whole and by range, and deletes; the upload leaves no temporary file', async () => {
    const store = s3Store(settings(), scratch);
    cleanups.push(async () => store.close());
    await store.check();
    const content = randomBytes(300_000);
    const temp = join(scratch, 'small.part');
    writeFileSync(temp, content);
    await store.put('ab/cd/small-object-token-0001', temp, { size: content.length, mime: 'application/pdf' });
    expect(await drain(await store.get('ab/cd/small-object-token-0001'))).toEqual(content);
    expect(await drain(await store.get('ab/cd/small-object-token-0001', { start: 1000, end: 1999 }))).toEqual(
      content.subarray(1000, 2000),
    );
    // The object sits under the prefix, with its type.
    const head = await s3Client(settings()).send(
      new GetObjectCommand({
        Bucket: s3.bucket,
        Key: 'files/ab/cd/small-object-token-0001',
        Range: 'bytes=0-0',
      }),
    );
    expect(head.ContentType).toBe('application/pdf');
    await store.remove('ab/cd/small-object-token-0001');
    await expect(store.get('ab/cd/small-object-token-0001')).rejects.toMatchObject({ name: 'NoSuchKey' });
    // Removing what is gone is not an error.
    await store.remove('ab/cd/small-object-token-0001');
    expect(existsSync(temp)).toBe(false);
  });

  it('moves a 200 MB file up and down as a stream: memory grows by a few parts, not by the file', async () => {
    const store = s3Store(settings(), scratch);
    cleanups.push(async () => store.close());
    const size = 200 * 1024 * 1024;
    const temp = join(scratch, 'big.part');
    const hash = createHash('sha256');
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(temp);
      out.on('error', reject);
      const block = randomBytes(1024 * 1024);
      let written = 0;
      const more = () => {
        while (written < size) {
          // Each MiB differs (its index in the first bytes), so a part sent twice or out of order shows.
          const chunk = Buffer.from(block);
          chunk.writeUInt32BE(written / (1024 * 1024), 0);
          hash.update(chunk);
          written += chunk.length;
          if (!out.write(chunk)) return void out.once('drain', more);
        }
        out.end(resolve);
      };
      more();
    });
    const expected = hash.digest('hex');

    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    try {
      await store.put('ef/01/big-object-token-000001', temp, { size, mime: 'application/pdf' });
      const down = createHash('sha256');
      let got = 0;
      for await (const c of await store.get('ef/01/big-object-token-000001')) {
        down.update(c as Buffer);
        got += (c as Buffer).length;
      }
      expect(got).toBe(size);
      expect(down.digest('hex')).toBe(expected);
    } finally {
      clearInterval(sampler);
    }
    // Two 8 MiB parts in flight plus the SDK's buffers; holding the file would add 200 MiB or more.
    expect(peak - baseline).toBeLessThan(100 * 1024 * 1024);
    await store.remove('ef/01/big-object-token-000001');
  }, 240_000);

  it('stops the start-up with one line naming the setting: wrong keys, missing bucket, no server', async () => {
    const line = async (over: Partial<S3Config>) => {
      const store = s3Store(settings({ maxAttempts: 1, ...over }), scratch);
      try {
        await store.check();
        return 'started';
      } catch (err) {
        expect(err).toBeInstanceOf(StartupError);
        return (err as Error).message;
      } finally {
        store.close();
      }
    };
    // s3rver checks the key id only (it does not verify V4 signatures), so a wrong secret is not
    // tried here; AWS, MinIO and Ceph answer it 403 like an unknown key id.
    expect(await line({ accessKeyId: 'NOBODY' })).toMatch(/^S3_ACCESS_KEY_ID \/ S3_SECRET_ACCESS_KEY: /);
    expect(await line({ bucket: 'no-such-bucket' })).toMatch(
      /^S3_BUCKET: bucket "no-such-bucket" .* does not exist/,
    );
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    expect(await line({ endpoint: `http://127.0.0.1:${port}` })).toMatch(/^S3_ENDPOINT: nothing answers/);
  });

  it('gives up on a server that never answers after the timeout, retrying a bounded number of times', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    cleanups.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    });
    const port = (silent.address() as { port: number }).port;
    const store = s3Store(
      settings({ endpoint: `http://127.0.0.1:${port}`, timeoutMs: 300, maxAttempts: 3 }),
      scratch,
    );
    try {
      await expect(store.get('ab/cd/never-answered-token-01')).rejects.toMatchObject({
        name: 'TimeoutError',
      });
    } finally {
      store.close();
    }
    expect(sockets.length).toBe(3);
  });
});

describe(`files in S3 through the server (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  async function target(name: string): Promise<Config> {
    const env: Record<string, string> = {
      DATA_DIR: join(scratch, name),
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      DEMO_DATA: 'off',
      WEB_DIST: '',
      BUSINESS_DATE: '2026-01-15',
      LOGIN_RATE_PER_IP_PER_MINUTE: '0',
      ...s3.env,
    };
    if (onPostgres) {
      const db = await createPgDatabase(`s3_${name}`);
      cleanups.push(db.drop);
      env.DATABASE_URL = db.url;
    }
    return loadConfig(env);
  }

  const withPortal = <T>(config: Config, work: (admin: TestClient, portal: Portal) => Promise<T>) =>
    withStartedPortal(config, TEST_ADMIN_PASSWORD, work);

  const download = (portal: Portal, token: string, fileToken: string, range?: string) =>
    portal.app.inject({
      method: 'GET',
      url: `/api${FILE_PATHS.download}?fileToken=${fileToken}`,
      headers: { authorization: `Bearer ${token}`, ...(range ? { range } : {}) },
    });

  it('uploads into the bucket, serves ranges; a database restored from backup finds the file, and a wrong key stops its start', async () => {
    const content = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(50_000)]);
    const source = await target('source');
    const fileToken = await withPortal(source, async (admin, portal) => {
      const boundary = '----portalS3Boundary';
      const res = await portal.app.inject({
        method: 'POST',
        url: `/api${FILE_PATHS.upload}`,
        headers: {
          authorization: `Bearer ${admin.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="合同.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
          ),
          content,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
      expect(res.statusCode).toBe(200);
      const info = (res.json() as { data: FileInfo }).data;

      const whole = await download(portal, admin.token!, info.fileToken);
      expect([whole.statusCode, whole.headers['accept-ranges']]).toEqual([200, 'bytes']);
      expect(sha256(whole.rawPayload)).toBe(sha256(content));

      const part = await download(portal, admin.token!, info.fileToken, 'bytes=9-1008');
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 9-1008/${content.length}`);
      expect(part.rawPayload).toEqual(content.subarray(9, 1009));

      const tail = await download(portal, admin.token!, info.fileToken, 'bytes=-100');
      expect(tail.rawPayload).toEqual(content.subarray(content.length - 100));

      const beyond = await download(portal, admin.token!, info.fileToken, `bytes=${content.length}-`);
      expect([beyond.statusCode, beyond.headers['content-range']]).toEqual([
        416,
        `bytes */${content.length}`,
      ]);
      return info.fileToken;
    });

    const file = join(scratch, 'with-s3.backup');
    await backup(source, file);
    const copy = await target('restored');
    await restore(copy, file);
    await withPortal(copy, async (admin, portal) => {
      const res = await download(portal, admin.token!, fileToken);
      expect(res.statusCode).toBe(200);
      expect(sha256(res.rawPayload)).toBe(sha256(content));
    });

    // The same database with a key the store does not know: the start stops, naming the setting.
    const refused = { ...copy, s3: settings({ accessKeyId: 'NOBODY', maxAttempts: 1 }) };
    await expect(withPortal(refused, async () => 'started')).rejects.toThrow(
      /^S3_ACCESS_KEY_ID \/ S3_SECRET_ACCESS_KEY: bucket "portal"/,
    );
  }, 240_000);
});
