import { lt, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { TIMESTAMP_WINDOW_MS } from '@portal/contract/envelope';
import type { Db } from '../db/client';
import { nonces } from '../auth/schema';

/** Remembers nonces for the timestamp window so a replay is refused on any instance. */
export interface NonceStore {
  /** True the first time a nonce is seen within the window, false on a replay. */
  claim(nonce: string): Promise<boolean>;
  purge(): Promise<void>;
}

export function dbNonceStore(db: Db): NonceStore {
  return {
    async claim(nonce) {
      const res = await db
        .insert(nonces)
        .values({ nonce })
        .onConflictDoNothing()
        .returning({ n: nonces.nonce });
      return res.length === 1;
    },
    async purge() {
      // Twice the window: a nonce must outlive any timestamp the server still accepts.
      await db
        .delete(nonces)
        .where(lt(nonces.seenAt, sql`now() - make_interval(secs => ${(2 * TIMESTAMP_WINDOW_MS) / 1000})`));
    },
  };
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
