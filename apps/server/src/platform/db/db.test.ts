import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text as textField, version } from '@portal/contract/fields';
import { auditColumns } from './columns';
import { nextCode } from './codes';
import { insertSlices, openDatabase, queryRows, slicesOf } from './client';
import { migrate } from './migrate';
import { updateVersioned } from './versioned';
import { auditLog, writeAudit } from './audit';
import { createTestPortal, onPostgres, type TestPortal } from '../../testing/harness';
import { serverRoot } from '../../server';
import type { PortalModule } from '../module';

/** A sample versioned table and a route that needs the bank menu code: enough to test the platform alone. */
const notes = pgTable('sample_notes', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  amount: integer('amount'),
  ...auditColumns,
});

const sampleModule: PortalModule = {
  name: 'sample',
  async seed({ db }) {
    await db.execute(sql`create table if not exists sample_notes (id serial primary key, title text not null, amount integer,
      created_at timestamptz not null default now(), created_by bigint, updated_at timestamptz not null default now(),
      updated_by bigint, version integer not null default 0)`);
    await db.execute(
      sql`insert into sample_notes (title) select 'first' where not exists (select 1 from sample_notes)`,
    );
  },
  register({ api, db }) {
    api.post(
      '/sample/note/update',
      {
        perm: 'ft-bank:save',
        scope: { none: 'a test table without an owner' },
        body: z.object({ id: z.number().int(), title: textField('标题', 20), version }),
      },
      async ({ body, actor }) => {
        await db.transaction(async (tx) => {
          await updateVersioned(
            tx,
            notes,
            eq(notes.id, body.id),
            body.version,
            { title: body.title },
            actor.userId,
            '笔记',
          );
          await writeAudit(tx, actor, {
            entity: 'note',
            entityCode: String(body.id),
            action: 'update',
            detail: { title: body.title },
          });
        });
        return null;
      },
    );
  },
};

let t: TestPortal;
beforeAll(async () => {
  t = await createTestPortal({}, [sampleModule]);
});
afterAll(() => t.close());

describe('permissions on a coded route', () => {
  it('answers 403 without a session, 401 without the code, 200 with it', async () => {
    expect((await t.client().call('/api/sample/note/update', { id: 1, title: 'x', version: 0 })).status).toBe(
      403,
    );
    const { db } = t.database;
    const roleCode = await nextCode(db, 'role');
    await db.execute(sql`insert into roles (biz_code, name, code) values (${roleCode}, 'viewer', 'viewer')`);
    await db.execute(sql`insert into users (user_code, user_name, real_name, password_hash)
      select ${await nextCode(db, 'user')}, 'viewer', 'viewer', password_hash from users where user_name = 'admin'`);
    await db.execute(
      sql`insert into user_roles select u.id, r.id from users u, roles r where u.user_name = 'viewer' and r.code = 'viewer'`,
    );
    const viewer = await t.login('viewer');
    const denied = await viewer.call('/api/sample/note/update', { id: 1, title: 'x', version: 0 });
    expect([denied.httpStatus, denied.status, denied.ok]).toEqual([401, 401, false]);
    // A grant takes effect on the same session's next call.
    await db.execute(sql`insert into role_menus select id, 'ft-bank:save' from roles where code = 'viewer'`);
    expect(
      (await viewer.call('/api/sample/note/update', { id: 1, title: 'granted', version: 0 })).status,
    ).toBe(200);
  });
});

describe('optimistic lock', () => {
  it('bumps the version, and a stale version answers 409 and changes nothing', async () => {
    const admin = await t.login();
    const [before] = await t.database.db.select().from(notes).where(eq(notes.id, 1));
    const ok = await admin.call('/api/sample/note/update', {
      id: 1,
      title: 'second',
      version: before!.version,
    });
    expect(ok.status).toBe(200);
    const stale = await admin.call('/api/sample/note/update', {
      id: 1,
      title: 'third',
      version: before!.version,
    });
    expect([stale.httpStatus, stale.msg]).toEqual([409, '数据已被他人修改，请刷新后重试']);
    const [after] = await t.database.db.select().from(notes).where(eq(notes.id, 1));
    expect(after).toMatchObject({ title: 'second', version: before!.version + 1 });
    const missing = await admin.call('/api/sample/note/update', { id: 999, title: 'x', version: 0 });
    expect([missing.status, missing.msg]).toEqual([404, '笔记不存在']);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.entity, 'note'));
    expect(audits.map((a) => a.detail)).toContainEqual({ title: 'second' });
    expect(audits.every((a) => a.requestId && a.actorName)).toBe(true);
  });
});

describe('business codes', () => {
  it('are 12 digits and unique under 50 concurrent inserts', async () => {
    const codes = await Promise.all(
      Array.from({ length: 50 }, () => t.database.db.transaction((tx) => nextCode(tx, 'dept'))),
    );
    expect(codes.every((c) => /^\d{12}$/.test(c))).toBe(true);
    expect(new Set(codes).size).toBe(50);
  });

  it('are never reused after a rollback', async () => {
    const first = await nextCode(t.database.db, 'role');
    await t.database.db
      .transaction(async (tx) => {
        await nextCode(tx, 'role');
        throw new Error('rollback');
      })
      .catch(() => undefined);
    const next = await nextCode(t.database.db, 'role');
    expect(BigInt(next) - BigInt(first)).toBe(2n);
  });
});

describe('inserts in slices', () => {
  // The day-end writes its overdue marks in slices; a column count written by hand fell one short
  // when day_end_items gained a column, and every day-end with more than 6,553 marks failed.
  it("slice by the table's own columns, so the largest slice binds, and a count one short does not", async () => {
    const { db } = t.database;
    const columns = Object.keys(getTableColumns(notes)).length;
    const at = '2026-11-20T00:00:00Z';
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      id: 1_000_000 + i,
      title: `slice ${i}`,
      amount: i,
      createdAt: at,
      createdBy: 1,
      updatedAt: at,
      updatedBy: 1,
      version: 0,
    }));
    const slices = insertSlices(notes, rows);
    expect(Math.max(...slices.map((s) => s.length)) * columns).toBeLessThanOrEqual(65_535);
    await db.transaction(async (tx) => {
      for (const part of slices) await tx.insert(notes).values(part);
    });
    const [n] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from sample_notes where id >= 1000000`,
    );
    expect(n!.n).toBe(rows.length);
    await db.delete(notes).where(sql`${notes.id} >= 1000000`);
    const oneShort = slicesOf(rows, Math.floor(65_535 / (columns - 1)));
    await expect(db.transaction((tx) => tx.insert(notes).values(oneShort[0]!))).rejects.toThrow();
    const [left] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from sample_notes where id >= 1000000`,
    );
    expect(left!.n).toBe(0);
  });
});

describe.runIf(onPostgres)('a server without free connection slots', () => {
  // The flake of paid.test.ts "50 write-offs approved concurrently against one incoming" (one
  // answer 500 系统繁忙 among the business refusals): other test files' pools had taken the
  // server's slots, so part of a burst could not connect (docs/operations.md "Connection slots").
  // A role limited to 2 connections stands in for a full server: the same refusal (53300).
  it("makes a burst wider than the free slots queue for the pool's own connections instead of failing", async () => {
    const role = `slots_${process.pid}_${Date.now()}`;
    const admin = t.database.db;
    await admin.execute(sql.raw(`create role ${role} login connection limit 2`));
    const url = new URL(t.databaseUrl!);
    url.username = role;
    url.password = '';
    const limited = await openDatabase({ databaseUrl: url.toString(), poolSize: 10 });
    try {
      const answers = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          limited.db.transaction(async (tx) => {
            await tx.execute(sql`select pg_sleep(0.05)`);
            return i;
          }),
        ),
      );
      expect(answers.filter((a) => a.status === 'rejected')).toEqual([]);
      expect(limited.pool().max).toBe(10);
      // pool.query (the callback form of a checkout) waits too.
      const plain = await Promise.all(
        Array.from({ length: 6 }, () => limited.db.execute(sql`select 1 as one`)),
      );
      expect(plain).toHaveLength(6);
    } finally {
      await limited.close();
      await admin.execute(sql.raw(`drop role ${role}`));
    }
  });
});

describe.skipIf(onPostgres)('embedded PGlite directory', () => {
  it('keeps data across a restart and refuses a second process on the same directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-restart-'));
    try {
      const open = () => openDatabase({ pgliteDir: join(dir, 'pg'), lockDir: dir });
      const first = await open();
      await migrate(first, join(serverRoot(), 'migrations'));
      await first.db.execute(sql`insert into depts (biz_code, name) values ('000000000777', '持久化测试')`);
      await expect(open()).rejects.toThrow(/in use by another process/);
      await first.close();
      const second = await open();
      expect(await migrate(second, join(serverRoot(), 'migrations'))).toEqual([]);
      const rows = await queryRows<{ name: string }>(
        second.db,
        sql`select name from depts where biz_code = '000000000777'`,
      );
      expect(rows).toEqual([{ name: '持久化测试' }]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
