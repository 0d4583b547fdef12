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

/**
 * The claim of a batch: a prepared statement (PostgreSQL parses and plans it once per connection)
 * taking the nonces as one text[] parameter, sent on the driver below drizzle, which would build
 * the SQL again for every batch. Committed without waiting for the WAL flush (set_config local to
 * this statement's own transaction): a call waits on its nonce before it runs, and the flush was
 * most of that wait. Safe because WAL is flushed in order: any write the call then commits durably
 * carries its nonce with it, and a crash can only forget nonces of calls that wrote nothing.
 */
const CLAIM_SQL = `insert into nonces (nonce)
  select n from unnest($1::text[]) n, (select set_config('synchronous_commit', 'off', true)) async_commit
  on conflict do nothing returning nonce`;

type ClaimRows = Promise<{ rows: { nonce: string }[] }>;
/** What drizzle's `$client` is on each driver: a pg Pool (config objects) or PGlite (text, params). */
type DriverClient =
  | { query(q: { name: string; text: string; values: unknown[] }): ClaimRows; totalCount: number }
  | { query(text: string, params: unknown[]): ClaimRows };

export function dbNonceStore(db: Db): NonceStore {
  const client = (db as unknown as { $client: DriverClient }).$client;
  const insert =
    'totalCount' in client
      ? (batch: string[]) => client.query({ name: 'portal_claim_nonces', text: CLAIM_SQL, values: [batch] })
      : (batch: string[]) => client.query(CLAIM_SQL, [batch]);
  return {
    claim: groupClaims(async (batch) => new Set((await insert(batch)).rows.map((r) => r.nonce))),
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
 * meanwhile share the next one. The first insert starts once the event loop has read what the
 * sockets brought in this turn (setImmediate), so calls that arrived together share it too; under
 * load one statement serves a whole batch instead of one per call, and a statement costs the
 * database about as much for eight nonces as for one (docs/protocol.md "The replay window").
 * `insert` answers which of the given distinct nonces were new.
 */
export function groupClaims(
  insert: (batch: string[]) => Promise<Set<string>>,
): (nonce: string) => Promise<boolean> {
  let queue: Claim[] = [];
  let flushing = false;
  async function flush() {
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
      if (flushing) return;
      flushing = true;
      setImmediate(() => void flush());
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
