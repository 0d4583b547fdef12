import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeFeed } from '../db/change-feed';
import { openDatabase, queryRows, type Db } from '../db/client';
import { createTestPortal, createUserWithCodes, onPostgres, type TestPortal } from '../../testing/harness';
import { createSession, SessionCache } from './sessions';

const HOUR = 3_600_000;
let t: TestPortal;
let db: Db;
let adminId: number;

beforeAll(async () => {
  t = await createTestPortal();
  db = t.database.db;
  const [admin] = await queryRows<{ id: string }>(db, sql`select id from users where user_name = 'admin'`);
  adminId = Number(admin!.id);
});
afterAll(() => t.close());

/** Changes a session's row without the notice of migrations/0017, to see whether the cache answers. */
async function revokeUnannounced(token: string) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`alter table sessions disable trigger sessions_auth_changed`);
    await tx.execute(sql`update sessions set revoked_at = now() where revoked_at is null
      and id = (select max(id) from sessions)`);
    await tx.execute(sql`alter table sessions enable trigger sessions_auth_changed`);
  });
  return token;
}

describe('SessionCache: no round trip per call for the session', () => {
  it('answers a known session from memory until a change is announced', async () => {
    const cache = new SessionCache(t.database.changes, () => 2 * HOUR);
    const token = await createSession(db, adminId, HOUR);
    expect((await cache.resolve(db, token))?.userId).toBe(adminId);
    await revokeUnannounced(token);
    // Still answered: the cache, not the database, answered.
    expect((await cache.resolve(db, token))?.userId).toBe(adminId);
    // Any announced auth change, here a grant to nobody in particular, drops it at once.
    await db.execute(sql`update roles set state = state where false`);
    expect(await cache.resolve(db, token)).toBeUndefined();
  });

  it('sees a code withdrawn and a revocation by raw SQL on the very next call', async () => {
    const cache = new SessionCache(t.database.changes, () => 2 * HOUR);
    const { userId, roleId } = await createUserWithCodes(db, 'cached', 'Cached@123456', ['ft-bank']);
    const token = await createSession(db, userId, HOUR);
    expect((await cache.resolve(db, token))!.codes.has('ft-bank')).toBe(true);
    await db.execute(sql`delete from role_menus where role_id = ${roleId}`);
    expect((await cache.resolve(db, token))!.codes.has('ft-bank')).toBe(false);
    await db.execute(sql`insert into role_menus values (${roleId}, 'ft-bank')`);
    expect((await cache.resolve(db, token))!.codes.has('ft-bank')).toBe(true);
    await db.execute(sql`update sessions set revoked_at = now() where user_id = ${userId}`);
    expect(await cache.resolve(db, token)).toBeUndefined();
  });

  it('does not keep a read that a notice overtook, nor one made while no notice can arrive', async () => {
    let announce = () => {};
    let live = true;
    const feed: ChangeFeed = {
      on: (_topic, fn) => {
        announce = fn;
      },
      live: () => live,
    };
    const cache = new SessionCache(feed, () => 2 * HOUR);
    const overtaken = await createSession(db, adminId, HOUR);
    const pending = cache.resolve(db, overtaken);
    announce(); // arrives while the read is in flight
    expect((await pending)?.userId).toBe(adminId);
    await revokeUnannounced(overtaken);
    expect(await cache.resolve(db, overtaken)).toBeUndefined();

    live = false;
    const deaf = await createSession(db, adminId, HOUR);
    expect((await cache.resolve(db, deaf))?.userId).toBe(adminId);
    await revokeUnannounced(deaf);
    expect(await cache.resolve(db, deaf)).toBeUndefined();
  });

  it('reads again after half the idle period, so idle expiry still holds', async () => {
    const cache = new SessionCache(t.database.changes, () => 200);
    const token = await createSession(db, adminId, HOUR);
    expect((await cache.resolve(db, token))?.userId).toBe(adminId);
    await db.execute(sql`alter table sessions disable trigger sessions_auth_changed`);
    try {
      await db.execute(sql`update sessions set last_seen_at = now() - interval '1 hour'
        where id = (select max(id) from sessions)`);
      await new Promise((r) => setTimeout(r, 120));
      expect(await cache.resolve(db, token)).toBeUndefined();
    } finally {
      await db.execute(sql`alter table sessions enable trigger sessions_auth_changed`);
    }
  });

  it.skipIf(!onPostgres)('another server on the same database sees a revocation a moment later', async () => {
    const other = await openDatabase({ databaseUrl: t.databaseUrl, poolSize: 2 });
    try {
      const cache = new SessionCache(t.database.changes, () => 2 * HOUR);
      const token = await createSession(db, adminId, HOUR);
      expect((await cache.resolve(db, token))?.userId).toBe(adminId);
      await other.db.execute(
        sql`update sessions set revoked_at = now() where id = (select max(id) from sessions)`,
      );
      const deadline = Date.now() + 2000;
      let answer = await cache.resolve(db, token);
      while (answer && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 10));
        answer = await cache.resolve(db, token);
      }
      expect(answer).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
