import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

/** Locks this process holds: the same pid in a lock file may be a dead earlier process (pid 1 in a container). */
const held = new Set<string>();

export interface DirLock {
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * An exclusive lock file holding our pid. A lock left by a process that died (SIGKILL) is taken
 * over; a lock held by a live process refuses the start with a clear message.
 */
export function acquireDirLock(path: string): DirLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      held.add(path);
      return {
        release: () => {
          held.delete(path);
          try {
            unlinkSync(path);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(path, 'utf8').trim());
      const ours = holder === process.pid;
      if ((ours && held.has(path)) || (!ours && Number.isInteger(holder) && holder > 0 && alive(holder))) {
        throw new Error(
          `The data directory is in use by another process (pid ${holder}, lock ${path}). ` +
            'Two processes on one embedded database corrupt it: stop the other one, or use DATABASE_URL.',
        );
      }
      unlinkSync(path);
    }
  }
  throw new Error(`could not take the lock ${path}`);
}
