import { tooMany } from '../errors';

export const HASH_BUSY_MESSAGE = '登录请求过多，请稍后再试';

/**
 * Bounds the password hashes running at once (SECURITY.md "Sign-in"). scrypt runs on libuv's
 * thread pool with file I/O and RSA; unbounded, a flood of logins queued there stalled downloads
 * for tens of seconds. `concurrency` hashes run, `queue` more wait in order, and anything beyond
 * is refused at once with 429 instead of joining an ever longer line.
 */
export class HashGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {}

  /** Hashes running and waiting now (for tests and logs). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) this.running++;
    else if (this.waiting.length < this.queue) await new Promise<void>((r) => this.waiting.push(r));
    else throw tooMany(HASH_BUSY_MESSAGE);
    try {
      return await work();
    } finally {
      // Hand the slot straight to the next waiter: `running` stays the same.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
