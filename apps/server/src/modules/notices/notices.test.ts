import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import { MESSAGE_PATHS, type MessageCount, type MessageView } from '@portal/contract/messages';
import { MONITOR_PATHS, type OperLogDetail, type OperLogView } from '@portal/contract/monitor';
import { button, menu } from '@portal/contract/menus';
import {
  NOTICE_MENU,
  NOTICE_PATHS,
  type NoticeBodyInput,
  type NoticeShown,
  type NoticeView,
} from '@portal/contract/notices';
import { queryRows } from '../../platform/db/client';
import {
  createDept,
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';

const noticeApi = servedPaths(NOTICE_PATHS);
const messageApi = servedPaths(MESSAGE_PATHS);
const PW = 'Notice@123456789';

/** A minute in Asia/Shanghai, `hours` from now, as the screen sends it. */
const at = (hours: number) =>
  new Date(Date.now() + hours * 3_600_000 + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');

let t: TestPortal;
let admin: TestClient;
let plain: TestClient;
let inA: TestClient;
let inA1: TestClient;
let inB: TestClient;
let nowhere: TestClient;
let deptA: string;
let deptB: string;

beforeAll(async () => {
  t = await createTestPortal();
  const { db } = t.database;
  admin = await t.login();
  const a = await createDept(db, '公告测试A部');
  const a1 = await createDept(db, '公告测试A部一组', a.id);
  const b = await createDept(db, '公告测试B部');
  deptA = a.bizCode;
  deptB = b.bizCode;
  await createUserWithCodes(db, 'notice-plain', PW, []);
  await createUserWithCodes(db, 'notice-a', PW, [], { deptId: a.id });
  await createUserWithCodes(db, 'notice-a1', PW, [], { deptId: a1.id });
  await createUserWithCodes(db, 'notice-b', PW, [], { deptId: b.id });
  plain = await t.login('notice-plain', PW);
  inA = await t.login('notice-a', PW);
  inA1 = await t.login('notice-a1', PW);
  inB = await t.login('notice-b', PW);
  nowhere = plain;
});
afterAll(() => t.close());

const body = (over: Partial<NoticeBodyInput> = {}): NoticeBodyInput => ({
  title: '系统维护通知',
  content: '本周六 22:00 起系统维护。\n请提前保存。',
  publishFrom: at(-1),
  publishTo: at(24),
  deptCodes: [],
  state: 'published',
  ...over,
});
const add = (over: Partial<NoticeBodyInput> = {}) => admin.ok<NoticeView>(noticeApi.add, body(over));
const shown = async (c: TestClient) =>
  (await c.ok<NoticeShown[]>(noticeApi.mine)).map((n) => n.title).filter((x) => x.startsWith('T-'));

describe('通知公告', () => {
  it('needs its codes on every route (401 without), a session for the dashboard (403 without)', async () => {
    const n = await add({ title: '权限测试' });
    const calls: [keyof typeof NOTICE_PATHS, unknown][] = [
      ['list', {}],
      ['get', { id: n.id }],
      ['add', body()],
      ['update', { ...body(), id: n.id, version: n.version }],
      ['setState', { id: n.id, state: 'withdrawn' }],
      ['delete', { id: n.id }],
      ['orgTree', undefined],
    ];
    for (const [k, b] of calls) expect((await plain.call(noticeApi[k], b)).status, k).toBe(401);
    expect((await t.client().call(noticeApi.mine)).status).toBe(403);
    expect((await plain.call(noticeApi.mine)).status).toBe(200);
    // Granted the menu only: reads, but writes nothing.
    await createUserWithCodes(t.database.db, 'notice-reader', PW, ['system-notice']);
    const reader = await t.login('notice-reader', PW);
    expect((await reader.call(noticeApi.list, {})).status).toBe(200);
    expect((await reader.call(noticeApi.orgTree)).status).toBe(200);
    expect((await reader.call(noticeApi.add, body())).status).toBe(401);
    expect((await admin.ok<NoticeView>(noticeApi.get, { id: n.id })).title).toBe('权限测试');
  });

  it('refuses bad input with a message naming the field, and stores nothing', async () => {
    const count = async () =>
      (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from notices`))[0]!.n;
    const before = await count();
    const cases: [Partial<NoticeBodyInput>, string][] = [
      [{ title: '' }, '公告标题不能为空'],
      [{ title: '长'.repeat(101) }, '公告标题不能超过100个字符'],
      [{ content: '' }, '公告内容不能为空'],
      [{ publishFrom: '2026-02-30 10:00' }, '发布开始时间必须是有效时间'],
      [{ publishTo: '' }, '发布结束时间不能为空'],
      [{ publishFrom: at(2), publishTo: at(1) }, '发布结束时间必须晚于发布开始时间'],
      [{ deptCodes: ['12'] }, '发布范围的组织必须是12位数字编号'],
      [{ deptCodes: ['999999999999'] }, '发布范围的组织不存在：999999999999'],
    ];
    for (const [over, msg] of cases) {
      const r = await admin.call(noticeApi.add, body(over));
      expect(r.status, msg).toBe(400);
      expect(r.msg, msg).toContain(msg);
    }
    expect(await count()).toBe(before);
    // An update refused half-way (an unknown organisation) changes nothing either.
    const n = await add({ title: '整体提交' });
    const r = await admin.call(noticeApi.update, {
      ...body({ title: '改了标题', deptCodes: ['999999999999'] }),
      id: n.id,
      version: n.version,
    });
    expect(r.status).toBe(400);
    expect((await admin.ok<NoticeView>(noticeApi.get, { id: n.id })).title).toBe('整体提交');
    // 操作日志 has the attempt, as a failure written after the rollback.
    const [failure] = await queryRows<{ result: string; detail: { msg: string } }>(
      t.database.db,
      sql`select result, detail from audit_log
           where entity = 'system-notice' and action = 'update' and entity_code = ${String(n.id)}`,
    );
    expect(failure).toEqual({
      result: 'failure',
      detail: expect.objectContaining({ msg: '发布范围的组织不存在：999999999999' }),
    });
  });

  it('shows a user only what is published, in its window, for everyone or their organisation or one above it', async () => {
    await add({ title: 'T-全部' });
    await add({ title: 'T-A部', deptCodes: [deptA] });
    await add({ title: 'T-B部', deptCodes: [deptB] });
    await add({ title: 'T-A和B', deptCodes: [deptA, deptB] });
    await add({ title: 'T-草稿', deptCodes: [deptA], state: 'draft' });
    await add({ title: 'T-未开始', publishFrom: at(2), publishTo: at(3) });
    await add({ title: 'T-已结束', publishFrom: at(-3), publishTo: at(-2) });
    const withdrawn = await add({ title: 'T-撤回' });
    await admin.ok(noticeApi.setState, { id: withdrawn.id, state: 'withdrawn' });

    const sorted = async (c: TestClient) => (await shown(c)).sort();
    expect(await sorted(inA)).toEqual(['T-A和B', 'T-A部', 'T-全部'].sort());
    expect(await sorted(inA1)).toEqual(['T-A和B', 'T-A部', 'T-全部'].sort());
    expect(await sorted(inB)).toEqual(['T-A和B', 'T-B部', 'T-全部'].sort());
    expect(await sorted(nowhere)).toEqual(['T-全部']);

    // Publishing the draft shows it; withdrawing hides it again.
    const draft = (await admin.ok<Page<NoticeView>>(noticeApi.list, { title: 'T-草稿' })).list[0]!;
    expect(draft).toMatchObject({
      state: 'draft',
      stateLabel: '草稿',
      depts: [{ code: deptA, name: '公告测试A部' }],
    });
    await admin.ok(noticeApi.setState, { id: draft.id, state: 'published' });
    expect(await shown(inA1)).toContain('T-草稿');
    expect(await shown(inB)).not.toContain('T-草稿');
    await admin.ok(noticeApi.setState, { id: draft.id, state: 'withdrawn' });
    expect(await shown(inA1)).not.toContain('T-草稿');
    const again = await admin.call(noticeApi.setState, { id: draft.id, state: 'withdrawn' });
    expect(again.status).toBe(409);
    expect(again.msg).toBe('只有已发布的公告可以撤回');

    // The list filters by state and title.
    const states = await admin.ok<Page<NoticeView>>(noticeApi.list, { state: 'withdrawn', pageSize: 100 });
    expect(states.list.map((n) => n.title).sort()).toEqual(['T-撤回', 'T-草稿'].sort());
  });

  it('audits every write with its before and after, readable in 操作日志', async () => {
    const n = await add({ title: '审计公告', deptCodes: [deptA] });
    const edited = await admin.ok<NoticeView>(noticeApi.update, {
      ...body({ title: '审计公告（改）', deptCodes: [deptA, deptB] }),
      id: n.id,
      version: n.version,
    });
    expect(edited.version).toBe(n.version + 1);
    // An edit made on the old version is refused: someone changed it meanwhile.
    const stale = await admin.call(noticeApi.update, {
      ...body({ title: '旧版本' }),
      id: n.id,
      version: n.version,
    });
    expect([stale.status, stale.msg]).toEqual([409, '数据已被他人修改，请刷新后重试']);
    await admin.ok(noticeApi.delete, { id: n.id });
    expect((await admin.call(noticeApi.get, { id: n.id })).status).toBe(404);
    const rows = await queryRows<{ action: string; detail: Record<string, unknown> }>(
      t.database.db,
      sql`select action, detail from audit_log where entity = 'notice' and entity_code = ${String(n.id)} order by id`,
    );
    expect(rows.map((r) => r.action)).toEqual(['add', 'update', 'delete']);
    expect(rows[1]!.detail).toEqual({
      before: { title: '审计公告', deptCodes: '公告测试A部' },
      after: { title: '审计公告（改）', deptCodes: '公告测试A部、公告测试B部' },
    });
    const log = await admin.ok<Page<OperLogView>>(`/api${MONITOR_PATHS.operLogList}`, {
      entity: 'notice',
      entityCode: String(n.id),
    });
    const update = log.list.find((l) => l.action === 'update')!;
    expect(update).toMatchObject({ entityLabel: '通知公告', actionLabel: '修改' });
    const detail = await admin.ok<OperLogDetail>(`/api${MONITOR_PATHS.operLogGet}`, { id: update.id });
    expect(detail.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: '公告标题', before: '审计公告', after: '审计公告（改）' }),
        expect.objectContaining({
          label: '发布范围',
          before: '公告测试A部',
          after: '公告测试A部、公告测试B部',
        }),
      ]),
    );
  });

  it('follows the author’s data scope: addresses, edits and withdraws only inside it', async () => {
    const { db } = t.database;
    const [a, b] = await queryRows<{ id: number }>(
      db,
      sql`select id::int as id from depts where biz_code in (${deptA}, ${deptB}) order by biz_code = ${deptB}`,
    );
    const codes = [
      menu(NOTICE_MENU),
      ...(['add', 'update', 'delete', 'publish'] as const).map((a) => button(NOTICE_MENU, a)),
    ];
    await createUserWithCodes(db, 'notice-scoped', PW, codes, { deptId: a!.id, dataScope: 'dept' });
    await createUserWithCodes(db, 'notice-wide', PW, codes, { deptId: a!.id });
    await createUserWithCodes(db, 'notice-scoped-b', PW, codes, { deptId: b!.id, dataScope: 'dept' });
    const scoped = await t.login('notice-scoped', PW);
    const wide = await t.login('notice-wide', PW);
    const scopedB = await t.login('notice-scoped-b', PW);
    const rows = async () =>
      queryRows(
        db,
        sql`select n.*, (select array_agg(dept_id order by dept_id) from notice_depts d
        where d.notice_id = n.id) as depts from notices n order by id`,
      );

    // Addressing: only organisations inside the scope (one outside reads as missing), never everybody.
    const before = await rows();
    const toB = await scoped.call(noticeApi.add, body({ title: '发往B部', deptCodes: [deptB] }));
    expect([toB.status, toB.msg]).toEqual([400, `发布范围的组织不存在：${deptB}`]);
    const toAll = await scoped.call(noticeApi.add, body({ title: '发往全部' }));
    expect([toAll.status, toAll.msg]).toEqual([400, '发布范围只能选择您数据权限内的组织']);
    expect(await rows()).toEqual(before);
    const own = await scoped.ok<NoticeView>(noticeApi.add, body({ title: 'S-本部', deptCodes: [deptA] }));

    // The administrator's, and a wider colleague's reaching B: neither listed, read, edited,
    // withdrawn nor deleted (404), and nothing changes.
    const adminsToB = await add({ title: 'S-管理员发B部', deptCodes: [deptB] });
    const adminsToA = await add({ title: 'S-管理员发A部', deptCodes: [deptA] });
    const widesToAB = await wide.ok<NoticeView>(
      noticeApi.add,
      body({ title: 'S-同事发AB', deptCodes: [deptA, deptB] }),
    );
    const kept = await rows();
    for (const n of [adminsToB, adminsToA, widesToAB]) {
      const calls: [keyof typeof NOTICE_PATHS, unknown][] = [
        ['get', { id: n.id }],
        ['update', { ...body({ title: '改写', deptCodes: [deptA] }), id: n.id, version: n.version }],
        ['setState', { id: n.id, state: 'withdrawn' }],
        ['delete', { id: n.id }],
      ];
      for (const [k, b] of calls)
        expect([(await scoped.call(noticeApi[k], b)).status, k, n.title]).toEqual([404, k, n.title]);
    }
    expect(await rows()).toEqual(kept);
    const listed = async (c: TestClient) =>
      (await c.ok<Page<NoticeView>>(noticeApi.list, { title: 'S-', pageSize: 100 })).list.map((n) => n.title);
    expect(await listed(scoped)).toEqual(['S-本部']);
    expect(await listed(scopedB)).toEqual([]);

    // Their own, and a colleague's of their organisation addressed inside it: theirs to keep.
    const widesToA = await wide.ok<NoticeView>(
      noticeApi.add,
      body({ title: 'S-同事发A部', deptCodes: [deptA] }),
    );
    await scoped.ok(noticeApi.setState, { id: widesToA.id, state: 'withdrawn' });
    const edited = await scoped.ok<NoticeView>(noticeApi.update, {
      ...body({ title: 'S-本部（改）', deptCodes: [deptA] }),
      id: own.id,
      version: own.version,
    });
    expect(edited.title).toBe('S-本部（改）');
    // The administrator keeps every one.
    await admin.ok(noticeApi.setState, { id: adminsToB.id, state: 'withdrawn' });
  });
  it('reaches the message centre of everyone it is addressed to while it is in force', async () => {
    const count = (c: TestClient) => c.ok<MessageCount>(messageApi.count);
    const messagesOf = async (c: TestClient, id: number) =>
      (await c.ok<Page<MessageView>>(messageApi.list, { pageSize: 100 })).list.filter(
        (m) => m.kind === 'notice' && m.docCode === String(id),
      );
    const everyone = [admin, inA, inA1, inB, plain];
    const before = await Promise.all(everyone.map(count));

    // A draft tells nobody; publishing it tells organisation A and its sub-organisation.
    const n = await add({ title: 'M-A部公告', deptCodes: [deptA], state: 'draft' });
    for (const c of everyone) expect(await messagesOf(c, n.id)).toEqual([]);
    const published = await admin.ok<NoticeView>(noticeApi.setState, { id: n.id, state: 'published' });
    for (const c of [inA, inA1]) {
      const [m] = await messagesOf(c, n.id);
      expect(m).toMatchObject({
        kindLabel: '通知公告',
        docType: 'notice',
        subject: 'M-A部公告',
        read: false,
      });
      expect(m!.title).toContain('发布了通知公告「M-A部公告」');
    }
    for (const c of [admin, inB, plain]) expect(await messagesOf(c, n.id)).toEqual([]);
    const afterPublish = await Promise.all(everyone.map(count));
    expect(afterPublish.map((c, i) => c.unread - before[i]!.unread)).toEqual([0, 1, 1, 0, 0]);
    // The dashboard's cue moves for the addressees only.
    expect(afterPublish.map((c, i) => c.notices !== before[i]!.notices)).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);

    // Re-addressed to B: A's messages go (A1 had read theirs), B gets one.
    const [a1Message] = await messagesOf(inA1, n.id);
    await inA1.ok(messageApi.read, { ids: [a1Message!.id] });
    const toB = await admin.ok<NoticeView>(noticeApi.update, {
      ...body({ title: 'M-B部公告', deptCodes: [deptB] }),
      id: n.id,
      version: published.version,
    });
    expect(await messagesOf(inA, n.id)).toEqual([]);
    expect((await messagesOf(inB, n.id)).map((m) => m.subject)).toEqual(['M-B部公告']);
    // Retitled while published: the messages kept follow the title, as read or unread as they were.
    const toAB = await admin.ok<NoticeView>(noticeApi.update, {
      ...body({ title: 'M-AB公告', deptCodes: [deptA, deptB] }),
      id: n.id,
      version: toB.version,
    });
    expect((await messagesOf(inB, n.id)).map((m) => [m.subject, m.read])).toEqual([['M-AB公告', false]]);
    // A1, addressed again, gets a new message: unread, though the one it had was read.
    expect((await messagesOf(inA1, n.id)).map((m) => m.read)).toEqual([false]);

    // Withdrawn: no dead message is left; the count falls back.
    await admin.ok(noticeApi.setState, { id: n.id, state: 'withdrawn' });
    for (const c of everyone) expect(await messagesOf(c, n.id)).toEqual([]);
    expect((await Promise.all(everyone.map(count))).map((c) => c.unread)).toEqual(
      before.map((c) => c.unread),
    );
    const stored = async (id: number) =>
      (
        await queryRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from messages where kind = 'notice' and doc_code = ${String(id)}`,
        )
      )[0]!.n;
    expect(await stored(n.id)).toBe(0);

    // Published again for everyone, then deleted: its messages go with it.
    await admin.ok(noticeApi.update, {
      ...body({ title: 'M-全员公告', deptCodes: [] }),
      id: n.id,
      version: toAB.version + 1,
    });
    for (const c of everyone) expect((await messagesOf(c, n.id)).length).toBe(1);
    await admin.ok(noticeApi.delete, { id: n.id });
    expect(await stored(n.id)).toBe(0);

    // One whose window has not begun is delivered but not shown (nor counted) until it does.
    const later = await add({ title: 'M-明天的公告', publishFrom: at(24), publishTo: at(48) });
    expect(await stored(later.id)).toBeGreaterThan(0);
    expect(await messagesOf(inB, later.id)).toEqual([]);
    expect((await count(inB)).unread).toBe(before[3]!.unread);
    await t.database.db.execute(
      sql`update notices set publish_from = now() - interval '1 minute' where id = ${later.id}`,
    );
    expect((await messagesOf(inB, later.id)).length).toBe(1);
    expect((await count(inB)).unread).toBe(before[3]!.unread + 1);
    await admin.ok(noticeApi.delete, { id: later.id });
  });
});
