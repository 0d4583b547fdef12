import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDirLock } from './lock';

const dir = mkdtempSync(join(tmpdir(), 'portal-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The state letter of a process in /proc (R, S, Z, …). */
function state(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

describe.skipIf(process.platform !== 'linux')('the data directory lock after a kill', () => {
  it('is taken over from a killed process its parent has not reaped yet, and refused to a live one', async () => {
    // `sleep 0` ends at once; the shell then becomes `sleep 30`, which never waits for it: a zombie
    // for as long as its parent lives, as a server killed under a supervisor that does not reap.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const zombie = Number(
        await new Promise<string>((res) => parent.stdout.once('data', (b) => res(String(b)))),
      );
      await expect.poll(() => state(zombie), { timeout: 10_000 }).toBe('Z');

      const path = join(dir, 'portal.lock');
      writeFileSync(path, String(parent.pid));
      expect(() => acquireDirLock(path)).toThrow(/in use by another process \(pid \d+/);

      writeFileSync(path, String(zombie));
      const lock = acquireDirLock(path);
      expect(readFileSync(path, 'utf8')).toBe(String(process.pid));
      lock.release();
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
