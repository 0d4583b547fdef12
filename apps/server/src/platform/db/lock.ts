import { closeSync, existsSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

/** Locks this process holds: the same pid in a lock file may be a dead earlier process (pid 1 in a container). */
const held = new Set<string>();

export interface DirLock {
  release(): void;
}

/**
 * Whether `pid` is a running process. A process killed but not yet reaped by its parent (a zombie,
 * state Z in /proc; for as long as a supervisor that does not reap leaves it) still answers
 * `kill(pid, 0)`, but it runs nothing and writes nothing: its lock is left behind like a dead one's.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !zombie(pid);
}

function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the command's name, which is in parentheses and may itself hold any character.
    return /^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    // Without /proc (not Linux) kill(pid, 0) has answered; with it, the process has just ended.
    return existsSync('/proc/self/stat');
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
