import { and, asc, sql } from 'drizzle-orm';
import { bigint, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestPortal,
  type TestClient,
  type TestPortal,
  TEST_PASSWORD_HASH_COST,
} from '../../testing/harness';
import { nextCode } from '../db/codes';
import { queryRows } from '../db/client';
import type { PortalModule } from '../module';
import type { DataScope } from '@portal/contract/permission';
import { dataScopeCondition, deptSubtreeIds, reachWithin, roleReach, unionReach } from './data-scope';
import { hashPassword } from './password-hash';

/** A sample business table with owner columns, and a list route that filters by data scope. */
const docs = pgTable('sample_scoped_docs', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  ownerUserId: bigint('owner_user_id', { mode: 'number' }).notNull(),
  ownerDeptId: bigint('owner_dept_id', { mode: 'number' }),
});

/** The sample lists apply dataScopeCondition themselves (what this file tests). */
const BY_HAND = { none: 'a test table scoped by hand with dataScopeCondition' };

const sampleModule: PortalModule = {
  name: 'sample-scope',
  async seed({ db }) {
    await db.execute(sql`create table if not exists sample_scoped_docs (id serial primary key,
      title text not null, owner_user_id bigint not null, owner_dept_id bigint)`);
  },
  register({ api, db }) {
    api.post('/sample/scoped/list', { perm: 'session', scope: BY_HAND }, async ({ user }) => {
      const rows = await db
        .select({ title: docs.title })
        .from(docs)
        .where(and(dataScopeCondition(user, { ownerUser: docs.ownerUserId, ownerDept: docs.ownerDeptId })))
        .orderBy(asc(docs.title));
      return rows.map((r) => r.title);
    });
    // Without an owner-dept column the scope goes through the owner's organisation.
    api.post('/sample/scoped/byUser', { perm: 'session', scope: BY_HAND }, async ({ user }) => {
      const rows = await db
        .select({ title: docs.title })
        .from(docs)
        .where(dataScopeCondition(user, { ownerUser: docs.ownerUserId }))
        .orderBy(asc(docs.title));
      return rows.map((r) => r.title);
    });
  },
};

const PASSWORD = 'Scope@12345678';
let t: TestPortal;
const ids: Record<string, number> = {};

async function dept(name: string, parent: string | null): Promise<number> {
  const { db } = t.database;
  const rows = await queryRows<{ id: number }>(
    db,
    sql`insert into depts (biz_code, name, parent_id) values (${await nextCode(db, 'dept')}, ${name},
      ${parent ? ids[parent]! : null}) returning id`,
  );
  return Number(rows[0]!.id);
}

/** A user with one role per scope; a 自定义 scope names its organisations (`custom:华北,上海`). */
async function user(name: string, deptName: string | null, ...scopes: string[]): Promise<number> {
  const { db } = t.database;
  const hash = await hashPassword(PASSWORD, TEST_PASSWORD_HASH_COST);
  const [u] = await queryRows<{ id: number }>(
    db,
    sql`insert into users (user_code, user_name, real_name, dept_id, password_hash)
      values (${await nextCode(db, 'user')}, ${name}, ${name}, ${deptName ? ids[deptName]! : null}, ${hash}) returning id`,
  );
  for (const [i, spec] of scopes.entries()) {
    const [scope, chosen] = spec.split(':') as [DataScope, string | undefined];
    const [r] = await queryRows<{ id: number }>(
      db,
      sql`insert into roles (biz_code, name, code, data_scope)
        values (${await nextCode(db, 'role')}, ${name}, ${`r-${name}${i || ''}`}, ${scope}) returning id`,
    );
    await db.execute(sql`insert into user_roles values (${u!.id}, ${r!.id})`);
    for (const d of chosen?.split(',') ?? [])
      await db.execute(sql`insert into role_depts values (${r!.id}, ${ids[d]!})`);
  }
  return Number(u!.id);
}

const clients: Record<string, TestClient> = {};

beforeAll(async () => {
  t = await createTestPortal({}, [sampleModule]);
  const { db } = t.database;
  // 总部 (seeded) > 华东 > 上海; 华北 beside it.
  const [root] = await queryRows<{ id: number }>(
    db,
    sql`select id from depts where parent_id is null limit 1`,
  );
  ids['总部'] = Number(root!.id);
  ids['华东'] = await dept('华东', '总部');
  ids['上海'] = await dept('上海', '华东');
  ids['华北'] = await dept('华北', '总部');
  const east = await user('east', '华东', 'dept');
  const sh = await user('sh', '上海', 'self');
  const north = await user('north', '华北', 'dept');
  await user('boss', '华北', 'all');
  const loner = await user('loner', null, 'dept');
  await user('east-only', '华东', 'deptOnly');
  await user('chosen', '华东', 'custom:上海,华北');
  await user('both', '华东', 'deptOnly', 'custom:华北');
  await user('loner-chosen', null, 'custom:华北');
  for (const [title, owner, d] of [
    ['a-east-own', east, '华东'],
    ['b-sh-own', sh, '上海'],
    ['c-north-own', north, '华北'],
    ['d-root-doc', north, '总部'],
    ['e-loner-own', loner, '华东'],
  ] as const)
    await db.execute(
      sql`insert into sample_scoped_docs (title, owner_user_id, owner_dept_id) values (${title}, ${owner}, ${ids[d]!})`,
    );
  for (const n of ['east', 'sh', 'north', 'boss', 'loner', 'east-only', 'chosen', 'both', 'loner-chosen'])
    clients[n] = await t.login(n, PASSWORD);
});
afterAll(() => t.close());

describe('data scope', () => {
  it('all sees every row, dept sees its organisation and below plus its own rows, self only its own', async () => {
    const list = (n: string) => clients[n]!.ok<string[]>('/api/sample/scoped/list', {});
    expect(await list('boss')).toEqual([
      'a-east-own',
      'b-sh-own',
      'c-north-own',
      'd-root-doc',
      'e-loner-own',
    ]);
    expect(await list('east')).toEqual(['a-east-own', 'b-sh-own', 'e-loner-own']);
    expect(await list('sh')).toEqual(['b-sh-own']);
    // north owns d-root-doc (filed under 总部, above 华北): own rows stay visible.
    expect(await list('north')).toEqual(['c-north-own', 'd-root-doc']);
  });

  it('without an owner-dept column goes through the owner user’s organisation', async () => {
    const list = (n: string) => clients[n]!.ok<string[]>('/api/sample/scoped/byUser', {});
    expect(await list('east')).toEqual(['a-east-own', 'b-sh-own']);
    expect(await list('north')).toEqual(['c-north-own', 'd-root-doc']);
    expect(await list('sh')).toEqual(['b-sh-own']);
  });

  it('follows a role’s scope change on the next call', async () => {
    await t.database.db.execute(sql`update roles set data_scope = 'all' where code = 'r-sh'`);
    expect(await clients['sh']!.ok<string[]>('/api/sample/scoped/list', {})).toHaveLength(5);
    await t.database.db.execute(sql`update roles set data_scope = 'self' where code = 'r-sh'`);
  });

  it('the subtree helper lists an organisation and all below it, and ends even on a cyclic row', async () => {
    const { db } = t.database;
    expect((await deptSubtreeIds(db, ids['华东']!)).sort()).toEqual([ids['华东'], ids['上海']].sort());
    expect(await deptSubtreeIds(db, ids['上海']!)).toEqual([ids['上海']]);
    expect((await deptSubtreeIds(db, ids['总部']!)).length).toBe(4);
    // The service never writes a cycle; the query must still terminate if one existed.
    await db.transaction(async (tx) => {
      await tx.execute(sql`update depts set parent_id = ${ids['上海']!} where id = ${ids['华东']!}`);
      expect((await deptSubtreeIds(tx, ids['华东']!)).sort()).toEqual([ids['华东'], ids['上海']].sort());
      await tx.execute(sql`update depts set parent_id = ${ids['总部']!} where id = ${ids['华东']!}`);
    });
  });

  it('a user without an organisation and dept scope sees only their own rows', async () => {
    expect(await clients['loner']!.ok<string[]>('/api/sample/scoped/list', {})).toEqual(['e-loner-own']);
    expect(await clients['loner']!.ok<string[]>('/api/sample/scoped/byUser', {})).toEqual(['e-loner-own']);
  });

  it('本部门 sees its organisation without those below it, 自定义 the chosen ones, and roles add up', async () => {
    const list = (n: string) => clients[n]!.ok<string[]>('/api/sample/scoped/list', {});
    expect(await list('east-only')).toEqual(['a-east-own', 'e-loner-own']);
    expect(await list('chosen')).toEqual(['b-sh-own', 'c-north-own']);
    expect(await list('both')).toEqual(['a-east-own', 'c-north-own', 'e-loner-own']);
    // Without an organisation of their own, a 自定义 role still reaches what it chose.
    expect(await list('loner-chosen')).toEqual(['c-north-own']);
    const byUser = (n: string) => clients[n]!.ok<string[]>('/api/sample/scoped/byUser', {});
    expect(await byUser('east-only')).toEqual(['a-east-own']);
    expect(await byUser('chosen')).toEqual(['b-sh-own', 'c-north-own', 'd-root-doc']);
  });

  it('compares every kind of scope by the organisations it reaches', async () => {
    const { db } = t.database;
    const [east, sh, north] = [ids['华东']!, ids['上海']!, ids['华北']!];
    const within = (inner: ReturnType<typeof roleReach>, outer: ReturnType<typeof roleReach>) =>
      reachWithin(db, inner, outer);
    const subtree = roleReach('dept', [], east);
    expect(await within(roleReach('deptOnly', [], east), subtree)).toBe(true);
    expect(await within(roleReach('custom', [east, sh], null), subtree)).toBe(true);
    expect(await within(roleReach('custom', [sh, north], east), subtree)).toBe(false);
    expect(await within(subtree, roleReach('deptOnly', [], east))).toBe(false);
    expect(await within(subtree, roleReach('custom', [east, sh], null))).toBe(true);
    expect(await within(roleReach('dept', [], ids['总部']!), subtree)).toBe(false);
    expect(await within(roleReach('self', [], east), roleReach('self', [], east))).toBe(true);
    expect(await within(roleReach('deptOnly', [], east), roleReach('self', [], east))).toBe(false);
    expect(await within('all', subtree)).toBe(false);
    expect(await within(subtree, 'all')).toBe(true);
    expect(await within(unionReach([subtree, roleReach('custom', [north], null)]), subtree)).toBe(false);
  });
});
