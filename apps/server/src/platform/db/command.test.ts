import { desc, eq, sql } from 'drizzle-orm';
import { pgTable, serial, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from './client';
import { createTestDb, type TestDb } from '../../testing/harness';
import { AppError } from '../errors';
import { auditLog, type Actor } from './audit';
import { auditColumns } from './columns';
import { laterOwner, runCommand, writeLater, writeWithAudit } from './command';

/** A versioned table of its own with a unique title: enough to test the path without a module. */
const notes = pgTable('command_notes', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  ...auditColumns,
});

const actor: Actor = { userId: 7, userName: 'tester', requestId: 'r1' };
let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
  await t.database.db.execute(sql`create table command_notes (id serial primary key, title text not null,
    created_at timestamptz not null default now(), created_by bigint, updated_at timestamptz not null default now(),
    updated_by bigint, version integer not null default 0, constraint command_notes_title_key unique (title))`);
  await t.database.db.execute(sql`insert into command_notes (title) values ('first'), ('second')`);
});
afterAll(() => t.drop());

const rowsOf = (entity: string) =>
  t.database.db.select().from(auditLog).where(eq(auditLog.entity, entity)).orderBy(desc(auditLog.id));
const note = async (id: number) => (await t.database.db.select().from(notes).where(eq(notes.id, id)))[0]!;

describe('the command path', () => {
  it('applies a versioned update and writes one audit row in the same transaction', async () => {
    const { version } = await note(1);
    const done = await runCommand(
      t.database.db,
      actor,
      { entity: 'noteA', action: 'update', code: 'N1', version, what: '笔记' },
      async (_tx, w) => {
        await w.update(notes, eq(notes.id, 1), { title: 'renamed' });
        await w.audit({ detail: { before: { title: 'first' }, after: { title: 'renamed' } } });
        return 'ok';
      },
    );
    expect(done).toBe('ok');
    expect(await note(1)).toMatchObject({ title: 'renamed', version: version + 1, updatedBy: 7 });
    const [row] = await rowsOf('noteA');
    expect(row).toMatchObject({
      entityCode: 'N1',
      action: 'update',
      actorId: 7,
      requestId: 'r1',
      result: 'success',
      detail: { before: { title: 'first' }, after: { title: 'renamed' } },
    });
  });

  it('answers a stale version 409 and a missing row 404, changing nothing', async () => {
    const before = await note(1);
    const attempt = (id: number, version: number) =>
      runCommand(
        t.database.db,
        actor,
        { entity: 'noteB', action: 'update', version, what: '笔记' },
        async (_tx, w) => {
          await w.update(notes, eq(notes.id, id), { title: 'lost' });
          await w.audit();
        },
      );
    await expect(attempt(1, before.version - 1)).rejects.toMatchObject({
      status: 409,
      message: '数据已被他人修改，请刷新后重试',
    });
    await expect(attempt(999, 0)).rejects.toMatchObject({ status: 404, message: '笔记不存在' });
    expect(await note(1)).toEqual(before);
    expect(await rowsOf('noteB')).toEqual([]);
  });

  it('rolls the write back with the audit row when a later step fails', async () => {
    const before = await note(2);
    await expect(
      runCommand(t.database.db, actor, { entity: 'noteC', action: 'disable' }, async (_tx, w) => {
        await w.touch(notes, eq(notes.id, 2), { title: 'gone' });
        await w.audit();
        throw new AppError(400, '后一步失败');
      }),
    ).rejects.toThrow('后一步失败');
    expect(await note(2)).toEqual(before);
    expect(await rowsOf('noteC')).toEqual([]);
  });

  it('joins the caller’s transaction: nested rows keep their order and roll back with it', async () => {
    await t.database.db
      .transaction(async (tx) => {
        await runCommand(tx, actor, { entity: 'noteD', action: 'outer', code: 'O' }, async (inner, w) => {
          await w.audit();
          await runCommand(inner, actor, { entity: 'noteD', action: 'inner', code: 'I' }, async (_t, v) =>
            v.audit(),
          );
        });
        expect(
          (await tx.select().from(auditLog).where(eq(auditLog.entity, 'noteD'))).map((r) => r.action),
        ).toEqual(['outer', 'inner']);
        throw new Error('the caller rolls back');
      })
      .catch(() => undefined);
    expect(await rowsOf('noteD')).toEqual([]);
  });

  it('refuses a write that ends without its audit row, and says so for one that changed nothing', async () => {
    await expect(
      runCommand(t.database.db, actor, { entity: 'noteE', action: 'touch' }, async (_tx, w) => {
        await w.touch(notes, eq(notes.id, 2), { title: 'unaudited' });
      }),
    ).rejects.toThrow('noteE.touch: the write ended without its audit row');
    expect((await note(2)).title).toBe('second');
    await runCommand(t.database.db, actor, { entity: 'noteE', action: 'touch' }, async (_tx, w) =>
      w.unchanged(),
    );
    expect(await rowsOf('noteE')).toEqual([]);
  });

  it('answers a named unique index in words and leaves any other violation to the standard message', async () => {
    const insert = (title: string, unique?: Record<string, string>) =>
      runCommand(t.database.db, actor, { entity: 'noteF', action: 'create', unique }, async (tx, w) => {
        await tx.insert(notes).values({ title });
        await w.audit();
      });
    await expect(insert('second', { command_notes_title_key: '标题已存在' })).rejects.toMatchObject({
      status: 409,
      message: '标题已存在',
    });
    const other = await insert('second', { some_other_key: '不相干' }).catch((e: unknown) => e);
    expect(other).not.toBeInstanceOf(AppError);
    expect(await rowsOf('noteF')).toEqual([]);
  });

  it('runs a waiting write with a later statement of its own document only, or at the command’s end', async () => {
    const [a, b] = [laterOwner('noteDoc', 'A'), laterOwner('noteDoc', 'B')];
    const titled = async (ex: Parameters<typeof queryRows>[0], title: string) =>
      (
        await queryRows<{ n: number }>(
          ex,
          sql`select count(*)::int as n from command_notes where title = ${title}`,
        )
      )[0]!.n;
    const seen: Record<string, number> = {};
    await runCommand(
      t.database.db,
      actor,
      { entity: 'noteDoc', action: 'approve', code: 'A' },
      async (tx, w) => {
        await writeLater(
          tx,
          a,
          (gate) => sql`insert into command_notes (title) select 'later-A' where ${gate}`,
        );
        // Another document's command inside (a hook submitting one): its statement leaves A's write waiting.
        await runCommand(tx, actor, { entity: 'noteDoc', action: 'submit', code: 'B' }, async (_tx, wb) => {
          await wb.audit();
          await writeWithAudit(
            tx,
            sql`update command_notes set version = version + 1 where id = 2 returning 1 as ok`,
            b,
          );
        });
        seen.afterB = await titled(tx, 'later-A');
        // A's own statement that changes no row leaves it waiting too.
        await writeWithAudit(
          tx,
          sql`update command_notes set version = version + 1 where id = -1 returning 1 as ok`,
          a,
        );
        seen.afterNothing = await titled(tx, 'later-A');
        await w.audit();
      },
    );
    expect(seen).toEqual({ afterB: 0, afterNothing: 0 });
    // Written with the outermost command's audit rows.
    expect(await titled(t.database.db, 'later-A')).toBe(1);
    expect((await rowsOf('noteDoc')).map((r) => r.entityCode)).toEqual(['A', 'B']);
  });
});
