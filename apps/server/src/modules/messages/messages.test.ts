import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/db/client';
import type { Page } from '@portal/contract/api';
import { MESSAGE_PATHS, type MessageCount, type MessageView } from '@portal/contract/messages';
import { WORKFLOW_PATHS } from '@portal/contract/workflow';
import { createTestPortal, type TestClient, type TestPortal, servedPaths } from '../../testing/harness';
import { createUser, SAMPLE, SAMPLE_PATHS, sampleModule } from '../workflow/testkit';

const messageApi = servedPaths(MESSAGE_PATHS);
const workflowApi = servedPaths(WORKFLOW_PATHS);

let t: TestPortal;
let maker: TestClient;
let risk1: TestClient;
let risk2: TestClient;
let boss: TestClient;
let bossId: number;

beforeAll(async () => {
  t = await createTestPortal({}, [sampleModule]);
  const { db } = t.database;
  await createUser(db, 'msg-maker', '张经办', ['biz-manager']);
  await createUser(db, 'msg-risk1', '李风控', ['risk']);
  await createUser(db, 'msg-risk2', '王风控', ['risk']);
  bossId = await createUser(db, 'msg-boss', '赵总', ['gm']);
  maker = await t.login('msg-maker');
  risk1 = await t.login('msg-risk1');
  risk2 = await t.login('msg-risk2');
  boss = await t.login('msg-boss');
});
afterAll(() => t.close());

const count = async (c: TestClient) => (await c.ok<MessageCount>(messageApi.count)).unread;
const list = (c: TestClient, unreadOnly = false) => c.ok<Page<MessageView>>(messageApi.list, { unreadOnly });

async function submit(title: string): Promise<string> {
  return (await maker.ok<{ bizCode: string }>(SAMPLE_PATHS.save, { title, amount: '1000.00', submit: true }))
    .bizCode;
}

describe('消息中心', () => {
  it('needs a session', async () => {
    for (const k of Object.keys(MESSAGE_PATHS) as (keyof typeof MESSAGE_PATHS)[])
      expect((await t.client().call(messageApi[k], { ids: [1] })).status, k).toBe(403);
  });

  it('tells the holders of the step a document waits for, and no one else', async () => {
    const before = {
      r1: await count(risk1),
      r2: await count(risk2),
      boss: await count(boss),
      maker: await count(maker),
    };
    const code = await submit('消息测试单据');
    expect(await count(risk1)).toBe(before.r1 + 1);
    expect(await count(risk2)).toBe(before.r2 + 1);
    expect(await count(boss)).toBe(before.boss);
    expect(await count(maker)).toBe(before.maker);
    const [m] = (await list(risk1, true)).list;
    expect(m).toMatchObject({
      kind: 'todo',
      kindLabel: '待审批',
      docType: SAMPLE,
      docCode: code,
      read: false,
    });
    expect(m!.title).toContain('张经办提交的');
    expect(m!.title).toContain('消息测试单据');
  });

  it('a rejection reads the to-dos of the step and tells the submitter why', async () => {
    const r1 = await count(risk1);
    const code = await submit('将被驳回的单据');
    expect(await count(risk1)).toBe(r1 + 1);
    const m0 = await count(maker);
    await risk1.ok(SAMPLE_PATHS.unAudit, { comment: '资料不全' }, { query: { bizCode: code } });
    // The step is decided: its to-do is no longer unread, for either holder.
    expect(await count(risk1)).toBe(r1);
    expect((await list(risk2, true)).list.some((m) => m.docCode === code)).toBe(false);
    expect(await count(maker)).toBe(m0 + 1);
    const [m] = (await list(maker, true)).list;
    expect(m).toMatchObject({ kind: 'rejected', docCode: code, detail: '资料不全', fromName: '李风控' });
    expect(m!.title).toContain('被李风控驳回：资料不全');
  });

  it('tells the colleagues a document is circulated to', async () => {
    const code = await submit('传阅的单据');
    const b0 = await count(boss);
    await maker.ok(
      workflowApi.circulate,
      { userIds: [bossId], message: '请阅' },
      { query: { docType: SAMPLE, docCode: code } },
    );
    expect(await count(boss)).toBe(b0 + 1);
    const [m] = (await list(boss, true)).list;
    expect(m).toMatchObject({ kind: 'circulate', docCode: code, detail: '请阅', fromName: '张经办' });
  });

  it('marks one read, then all; never another user’s', async () => {
    await submit('标记已读一');
    await submit('标记已读二');
    const mine = (await list(risk2, true)).list;
    expect(mine.length).toBeGreaterThanOrEqual(2);
    const theirs = (await list(risk1, true)).list[0]!;
    const r1 = await count(risk1);
    // risk2 names risk1's message: nothing happens to it.
    const after = await risk2.ok<MessageCount>(messageApi.read, { ids: [mine[0]!.id, theirs.id] });
    expect(after.unread).toBe(mine.length - 1);
    expect(await count(risk1)).toBe(r1);
    expect((await risk2.ok<MessageCount>(messageApi.readAll)).unread).toBe(0);
    expect((await list(risk2)).list.every((m) => m.read)).toBe(true);
    const bad = await risk2.call(messageApi.read, { ids: [] });
    expect([bad.status, bad.msg]).toEqual([400, '请选择消息']);
  });

  it('the bell’s poll does not keep an idle session alive; a real call does', async () => {
    const { db } = t.database;
    const aged = async () => {
      // Naming expires_at sends the sessions' change notice, so no server answers from its cache.
      await db.execute(sql`update sessions set last_seen_at = now() - interval '5 minutes', expires_at = expires_at
        where user_id = (select id from users where user_name = 'msg-boss') and revoked_at is null`);
    };
    const idleSeconds = async () =>
      (
        await queryRows<{ s: number }>(
          db,
          sql`select min(extract(epoch from now() - last_seen_at))::int as s from sessions
               where user_id = (select id from users where user_name = 'msg-boss') and revoked_at is null`,
        )
      )[0]!.s;
    await aged();
    await boss.ok(messageApi.count);
    expect(await idleSeconds()).toBeGreaterThanOrEqual(299);
    await aged();
    await boss.ok(messageApi.list, {});
    expect(await idleSeconds()).toBeLessThan(60);
  });

  it('the poll revalidates: 304 without a body while nothing changed, the new count once it has', async () => {
    const poll = (etag?: string) =>
      risk1.call<MessageCount>(messageApi.count, undefined, {
        method: 'GET',
        ...(etag ? { headers: { 'if-none-match': etag } } : {}),
      });
    const first = await poll();
    const etag = String(first.headers.etag);
    expect([first.httpStatus, first.headers['cache-control']]).toEqual([200, 'private, no-cache']);
    expect(etag).toMatch(/^"[\w-]{22}"$/);

    const same = await poll(etag);
    expect([same.httpStatus, same.raw.length, same.headers.etag]).toEqual([304, 0, etag]);
    // A POST is always answered in full: only a GET may be answered 304.
    expect(
      (await risk1.call(messageApi.count, undefined, { headers: { 'if-none-match': etag } })).httpStatus,
    ).toBe(200);

    await submit('轮询刷新');
    const changed = await poll(etag);
    expect(changed.httpStatus).toBe(200);
    expect(changed.data!.unread).toBe(first.data!.unread + 1);
    expect(changed.headers.etag).not.toBe(etag);
    // Reading it moves the tag again.
    await risk1.ok(messageApi.readAll);
    expect((await poll(String(changed.headers.etag))).data!.unread).toBe(0);
  });
});
