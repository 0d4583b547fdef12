import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { join } from 'node:path';
import { migrate } from '../db/migrate';
import { serverRoot } from '../../server';
import { createTestDb, createTestPortal, type TestPortal } from '../../testing/harness';
import { dbNonceStore, groupClaims } from './nonces';

describe('groupClaims', () => {
  it('inserts the claims of one turn together, and those that arrive meanwhile in the next batch', async () => {
    const batches: string[][] = [];
    const seen = new Set<string>();
    const claim = groupClaims(async (batch) => {
      batches.push(batch);
      await new Promise((r) => setTimeout(r, 5));
      const fresh = new Set(batch.filter((n) => !seen.has(n)));
      batch.forEach((n) => seen.add(n));
      return fresh;
    });
    const first = Array.from({ length: 10 }, (_, i) => claim(`a${i}`));
    // The first insert has started (it takes 5 ms); these wait for it and share the next one.
    await new Promise((r) => setImmediate(r));
    expect(batches.map((b) => b.length)).toEqual([10]);
    const rest = Array.from({ length: 50 }, (_, i) => claim(`a${i % 25}`));
    expect(await Promise.all(first)).toEqual(Array(10).fill(true));
    const answers = await Promise.all(rest);
    expect(batches.map((b) => b.length)).toEqual([10, 25]);
    // a0..a9 were claimed by the first batch; a10..a24 are new once each, the repeats are replays.
    expect(answers.filter(Boolean)).toHaveLength(15);
    expect(answers.slice(10, 25)).toEqual(Array(15).fill(true));
    expect(await claim('a1')).toBe(false);
    expect(await claim('b1')).toBe(true);
    expect(batches.length).toBe(4);
  });

  it('fails the claims of a failed insert, and the next ones go on', async () => {
    let fail = true;
    const claim = groupClaims(async (batch) => {
      if (fail) throw new Error('database down');
      return new Set(batch);
    });
    const failed = await Promise.allSettled([claim('x'), claim('y')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await claim('x')).toBe(true);
  });
});

describe('dbNonceStore', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await createTestPortal();
  });
  afterAll(() => t.close());

  it('grants each nonce once across concurrent claims, in the database', async () => {
    const store = dbNonceStore(t.database.db);
    const nonces = Array.from({ length: 120 }, (_, i) => `n${String(i % 60).padStart(16, '0')}`);
    const answers = await Promise.all(nonces.map((n) => store.claim(n)));
    console.info(`nonce claims: ${answers.length} concurrent, ${answers.filter(Boolean).length} granted`);
    expect(answers.filter(Boolean)).toHaveLength(60);
    expect((await Promise.all(nonces.slice(0, 60).map((n) => store.claim(n)))).some(Boolean)).toBe(false);
    // Another store (another server instance) sees them too.
    expect(await dbNonceStore(t.database.db).claim(nonces[0]!)).toBe(false);
    const [row] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from nonces where nonce like 'n%'`,
    );
    expect(row!.n).toBe(60);
  });

  it('commits claims asynchronously without leaving the setting on the connection', async () => {
    // One connection, so the statement after the claim runs where the claim ran.
    const single = await createTestDb({ poolSize: 1 });
    try {
      await migrate(single.database, join(serverRoot(), 'migrations'));
      const { db } = single.database;
      expect(await dbNonceStore(db).claim('async0000000000000001')).toBe(true);
      const [setting] = await queryRows<{ synchronous_commit: string }>(db, sql`show synchronous_commit`);
      expect(setting!.synchronous_commit).toBe('on');
      expect(await dbNonceStore(db).claim('async0000000000000001')).toBe(false);
    } finally {
      await single.drop();
    }
  });
});
