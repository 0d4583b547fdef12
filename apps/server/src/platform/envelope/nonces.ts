import { lt, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { TIMESTAMP_WINDOW_MS } from '@portal/contract/envelope';
import { queryRows, type Db } from '../db/client';
import { nonces } from '../auth/schema';

/** Remembers nonces for the timestamp window so a replay is refused on any instance. */
export interface NonceStore {
  /** True the first time a nonce is seen within the window, false on a replay. */
  claim(nonce: string): Promise<boolean>;
  purge(): Promise<void>;
}

export function dbNonceStore(db: Db): NonceStore {
  return {
    claim: groupClaims(async (batch) => {
      // Committed without waiting for the WAL flush (set_config local to this statement's own
      // transaction): a call waits on its nonce before it runs, and the flush was most of that
      // wait. Safe because WAL is flushed in order: any write the call then commits durably
      // carries its nonce with it, and a crash can only forget nonces of calls that wrote nothing.
      const rows = await queryRows<{ nonce: string }>(
        db,
        sql`insert into ${nonces} (nonce)
              select n from jsonb_array_elements_text(${JSON.stringify(batch)}::jsonb) n,
                            (select set_config('synchronous_commit', 'off', true)) async_commit
              on conflict do nothing returning nonce`,
      );
      return new Set(rows.map((r) => r.nonce));
    }),
    async purge() {
      // Twice the window: a nonce must outlive any timestamp the server still accepts.
      await db
        .delete(nonces)
        .where(lt(nonces.seenAt, sql`now() - make_interval(secs => ${(2 * TIMESTAMP_WINDOW_MS) / 1000})`));
    },
  };
}

interface Claim {
  nonce: string;
  resolve: (fresh: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for nonce claims: at most one insert is in flight, and the claims that arrive
 * meanwhile share the next one. Idle, a claim is inserted at once; under load, one round trip
 * serves a whole batch instead of one per call (a call's only other query is often its own).
 * `insert` answers which of the given distinct nonces were new.
 */
export function groupClaims(
  insert: (batch: string[]) => Promise<Set<string>>,
): (nonce: string) => Promise<boolean> {
  let queue: Claim[] = [];
  let flushing = false;
  async function flush() {
    flushing = true;
    while (queue.length) {
      const batch = queue;
      queue = [];
      try {
        const fresh = await insert([...new Set(batch.map((c) => c.nonce))]);
        // A nonce twice in one batch is new for its first claim only.
        for (const c of batch) c.resolve(fresh.delete(c.nonce));
      } catch (err) {
        for (const c of batch) c.reject(err);
      }
    }
    flushing = false;
  }
  return (nonce) =>
    new Promise<boolean>((resolve, reject) => {
      queue.push({ nonce, resolve, reject });
      if (!flushing) void flush();
    });
}

export function redisNonceStore(redis: Redis): NonceStore {
  return {
    async claim(nonce) {
      return (await redis.set(`portal:nonce:${nonce}`, '1', 'PX', 2 * TIMESTAMP_WINDOW_MS, 'NX')) === 'OK';
    },
    async purge() {
      /* keys expire by themselves */
    },
  };
}
