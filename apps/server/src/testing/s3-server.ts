import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The key pair an s3rver account accepts (it checks every signature against it). */
export const S3RVER_KEY = 'S3RVER';

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** S3_* settings pointing at this server. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * An S3-compatible server (s3rver, on disk in a temporary directory) in a child process of its own,
 * so a test measuring this process's memory sees the client's share only.
 */
export async function startS3Server(bucket = 'portal'): Promise<TestS3Server> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-s3-'));
  const script = `
    const S3rver = require('s3rver');
    new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: ${JSON.stringify(dir)},
      configureBuckets: [{ name: ${JSON.stringify(bucket)} }] })
      .run().then((a) => console.log('PORT ' + a.port), (e) => { console.error(e); process.exit(1); });
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const m = line.match(/^PORT (\d+)$/);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code} before listening`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
