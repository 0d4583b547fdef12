import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WORKFLOW_PATHS,
  type ApprovalRecord,
  type ProcessDefList,
  type ProcessView,
} from '@portal/contract/workflow';
import type { Page } from '@portal/contract/api';
import { auditChanges } from '@portal/contract/audit';
import { queryRows } from '../../platform/db/client';
import {
  createTestPortal,
  onPostgres,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';
import { seedWorkflow } from './seed';
import { createUser, SAMPLE, SAMPLE_PATHS, sampleModule } from './testkit';

const workflowApi = servedPaths(WORKFLOW_PATHS);

let t: TestPortal;
let maker: TestClient;
let risk1: TestClient;
let risk2: TestClient;
let boss: TestClient;
let admin: TestClient;
let nobody: TestClient;

beforeAll(async () => {
  t = await createTestPortal({}, [sampleModule]);
  const { db } = t.database;
  await createUser(db, 'maker', '张经办', ['biz-manager']);
  await createUser(db, 'risk1', '李风控', ['risk']);
  await createUser(db, 'risk2', '王风控', ['risk']);
  await createUser(db, 'boss', '赵总', ['gm']);
  await createUser(db, 'nobody', '无权限', []);
  // The maker may also approve (has the risk role) — to show four eyes refuses it anyway.
  await db.execute(sql`insert into user_roles (user_id, role_id)
    select u.id, r.id from users u, roles r where u.user_name = 'maker' and r.code = 'risk'`);
  maker = await t.login('maker');
  risk1 = await t.login('risk1');
  risk2 = await t.login('risk2');
  boss = await t.login('boss');
  admin = await t.login('admin');
  nobody = await t.login('nobody');
});
afterAll(() => t.close());

async function docState(code: string): Promise<string> {
  const [r] = await queryRows<{ state: string }>(
    t.database.db,
    sql`select state from sample_docs where biz_code = ${code}`,
  );
  return r!.state;
}
async function create(title: string, amount = '1000.00', submit = false): Promise<string> {
  const r = await maker.ok<{ bizCode: string }>(SAMPLE_PATHS.save, { title, amount, submit });
  return r.bizCode;
}
const q = (code: string) => ({ query: { bizCode: code } });
const ref = (code: string) => ({ query: { docType: SAMPLE, docCode: code } });
async function countWf(code: string) {
  const [r] = await queryRows<{ i: number; r: number; e: number; a: number }>(
    t.database.db,
    sql`select (select count(*)::int from wf_instances where doc_code = ${code}) as i,
               (select count(*)::int from wf_records where doc_code = ${code}) as r,
               (select count(*)::int from sample_effects where doc_code = ${code}) as e,
               (select count(*)::int from audit_log where entity_code = ${code} and result = 'success') as a`,
  );
  return r!;
}

describe('state machine', () => {
  it('draft: editable, deletable, cannot be approved or rejected', async () => {
    const code = await create('草稿单据');
    expect(await docState(code)).toBe('draft');
    expect(
      (await maker.call(SAMPLE_PATHS.save, { bizCode: code, title: '改过', amount: '5.00' })).status,
    ).toBe(200);
    const a = await risk1.call(SAMPLE_PATHS.audit, {}, q(code));
    expect([a.status, a.msg]).toEqual([409, '单据为草稿，不能审核']);
    const r = await risk1.call(SAMPLE_PATHS.unAudit, {}, q(code));
    expect([r.status, r.msg]).toEqual([409, '单据为草稿，不能驳回']);
    expect((await maker.call(SAMPLE_PATHS.del, undefined, q(code))).status).toBe(200);
    const gone = await maker.call(SAMPLE_PATHS.save, { bizCode: code, title: 'x', amount: '1.00' });
    expect([gone.status, gone.msg]).toEqual([404, '样例单据不存在']);
  });

  it('pending: not editable, not deletable, not submittable again; approve -> approved, immutable', async () => {
    const code = await create('待审核', '1000.00', true);
    expect(await docState(code)).toBe('pending');
    const edit = await maker.call(SAMPLE_PATHS.save, { bizCode: code, title: 'x', amount: '1.00' });
    expect([edit.status, edit.msg]).toEqual([409, '单据审核中，不能修改']);
    const again = await maker.call(SAMPLE_PATHS.save, {
      bizCode: code,
      title: 'x',
      amount: '1.00',
      submit: true,
    });
    expect([again.status, again.msg]).toEqual([409, '单据审核中，不能修改']);
    const del = await maker.call(SAMPLE_PATHS.del, undefined, q(code));
    expect([del.status, del.msg]).toEqual([409, '单据审核中，不能删除']);

    const ok = await risk1.ok<{ state: string; finished: boolean }>(
      SAMPLE_PATHS.audit,
      { comment: '同意' },
      q(code),
    );
    expect(ok).toMatchObject({ state: 'approved', finished: true });
    expect(await docState(code)).toBe('approved');
    for (const [call, msg] of [
      [maker.call(SAMPLE_PATHS.save, { bizCode: code, title: 'x', amount: '1.00' }), '单据已审核，不能修改'],
      [maker.call(SAMPLE_PATHS.del, undefined, q(code)), '单据已审核，不能删除'],
      [risk2.call(SAMPLE_PATHS.audit, {}, q(code)), '单据已审核，不能审核'],
      [risk2.call(SAMPLE_PATHS.unAudit, {}, q(code)), '单据已审核，不能驳回'],
    ] as const) {
      const r = await call;
      expect([r.status, r.msg]).toEqual([409, msg]);
    }
    const rec = await maker.ok<ApprovalRecord[]>(workflowApi.records, undefined, ref(code));
    expect(rec.map((r) => [r.step, r.action, r.actorName, r.comment])).toEqual([
      [0, 'submit', '张经办', null],
      [1, 'approve', '李风控', '同意'],
    ]);
    const c = await countWf(code);
    expect(c.e).toBe(1); // onApprove ran once
  });

  it('rejected: editable and submittable again (a new round); then approvable', async () => {
    const code = await create('将被驳回', '1000.00', true);
    const rej = await risk1.ok<{ state: string }>(SAMPLE_PATHS.unAudit, { comment: '资料不全' }, q(code));
    expect(rej.state).toBe('rejected');
    expect(await docState(code)).toBe('rejected');
    const a = await risk1.call(SAMPLE_PATHS.audit, {}, q(code));
    expect([a.status, a.msg]).toEqual([409, '单据已驳回，不能审核']);
    const resub = await maker.ok<{ flow: { state: string } }>(SAMPLE_PATHS.save, {
      bizCode: code,
      title: '已补资料',
      amount: '1000.00',
      submit: true,
    });
    expect(resub.flow.state).toBe('pending');
    await risk2.ok(SAMPLE_PATHS.audit, {}, q(code));
    const rec = await maker.ok<ApprovalRecord[]>(workflowApi.records, undefined, ref(code));
    expect(rec.map((r) => `${r.round}:${r.action}`)).toEqual([
      '1:submit',
      '1:reject',
      '2:submit',
      '2:approve',
    ]);
    const effects = await queryRows<{ kind: string }>(
      t.database.db,
      sql`select kind from sample_effects where doc_code = ${code} order by id`,
    );
    expect(effects.map((e) => e.kind)).toEqual(['rejected', 'approved']);
  });

  it('a rejected document can be deleted', async () => {
    const code = await create('驳回后删除', '1.00', true);
    await risk1.ok(SAMPLE_PATHS.unAudit, {}, q(code));
    expect((await maker.call(SAMPLE_PATHS.del, undefined, q(code))).status).toBe(200);
  });

  it('every transition writes the audit log', async () => {
    const code = await create('审计日志', '1.00', true);
    await risk1.ok(SAMPLE_PATHS.audit, {}, q(code));
    const rows = await queryRows<{ action: string }>(
      t.database.db,
      sql`select action from audit_log where entity = ${SAMPLE} and entity_code = ${code} order by id`,
    );
    expect(rows.map((r) => r.action)).toEqual(['create', 'submit', 'approve']);
  });
});

describe('who may decide', () => {
  it('four eyes: the submitter cannot approve or reject their own document', async () => {
    const code = await create('自审', '1.00', true);
    for (const path of [SAMPLE_PATHS.audit, SAMPLE_PATHS.unAudit]) {
      const r = await maker.call(path, {}, q(code));
      expect([r.status, r.msg]).toEqual([409, '经办人和复核人相同，不可复核']);
    }
    expect(await docState(code)).toBe('pending');
  });

  it('a user without the button code gets 401; without the step role gets 401 naming the step', async () => {
    const code = await create('无权', '1.00', true);
    expect((await nobody.call(SAMPLE_PATHS.audit, {}, q(code))).status).toBe(401);
    const r = await boss.call(SAMPLE_PATHS.audit, {}, q(code));
    expect([r.status, r.msg]).toEqual([401, '当前审批步骤「风控复核」需由风控审批']);
    expect(await docState(code)).toBe('pending');
  });

  it('admin may do any step', async () => {
    const code = await create('管理员审批', '2000000.00', true);
    await admin.ok(SAMPLE_PATHS.audit, {}, q(code));
    // …but not two steps of one document (four eyes across steps).
    const second = await admin.call(SAMPLE_PATHS.audit, {}, q(code));
    expect([second.status, second.msg]).toEqual([409, '同一人不能审批同一单据的多个步骤']);
    await boss.ok(SAMPLE_PATHS.audit, {}, q(code));
    expect(await docState(code)).toBe('approved');
  });
});

describe('multi-step process', () => {
  it('passes only after its last step; the amount threshold adds the 总经理 step', async () => {
    const small = await create('小额', '999999.99', true);
    const smallView = await maker.ok<ProcessView>(workflowApi.process, undefined, ref(small));
    expect(smallView.steps.map((s) => s.name)).toEqual(['风控复核']);

    const code = await create('大额', '1000000.00', true);
    let view = await risk1.ok<ProcessView>(workflowApi.process, undefined, ref(code));
    expect(view).toMatchObject({
      procName: '样例审批流程',
      status: 'pending',
      currentStep: 1,
      canApprove: true,
    });
    expect(view.steps.map((s) => [s.name, s.status])).toEqual([
      ['风控复核', 'current'],
      ['总经理审批', 'waiting'],
    ]);
    const first = await risk1.ok<{ state: string; step: number }>(SAMPLE_PATHS.audit, { step: 1 }, q(code));
    expect(first).toMatchObject({ state: 'pending', step: 2 });
    expect(await docState(code)).toBe('pending');
    expect((await countWf(code)).e).toBe(0);
    // A stale step (the user saw step 1) answers 409 instead of approving step 2.
    const stale = await boss.call(SAMPLE_PATHS.audit, { step: 1 }, q(code));
    expect([stale.status, stale.msg]).toEqual([409, '单据已被他人处理，请刷新后重试']);
    const wrongRole = await risk2.call(SAMPLE_PATHS.audit, {}, q(code));
    expect(wrongRole.status).toBe(401);
    view = await boss.ok<ProcessView>(workflowApi.process, undefined, ref(code));
    expect(view.steps.map((s) => s.status)).toEqual(['done', 'current']);
    expect(view.canApprove).toBe(true);
    await boss.ok(SAMPLE_PATHS.audit, { comment: '同意放款', step: 2 }, q(code));
    expect(await docState(code)).toBe('approved');
    view = await boss.ok<ProcessView>(workflowApi.process, undefined, ref(code));
    expect(view).toMatchObject({
      status: 'approved',
      currentStep: null,
      notic: '样例 大额',
      amount: '1000000.00',
    });
    expect(view.decide).toEqual({
      auditPath: SAMPLE_PATHS.audit,
      unAuditPath: SAMPLE_PATHS.unAudit,
      auditAction: 'audit',
      unAuditAction: 'unAudit',
    });
    expect(view.endTime).not.toBeNull();
    expect(view.useTime).toBeGreaterThanOrEqual(0);
    expect(view.steps.map((s) => [s.status, s.actorName])).toEqual([
      ['done', '李风控'],
      ['done', '赵总'],
    ]);
  });

  it('is rejected at any step (here the second)', async () => {
    const code = await create('第二步驳回', '3000000.00', true);
    await risk1.ok(SAMPLE_PATHS.audit, {}, q(code));
    await boss.ok(SAMPLE_PATHS.unAudit, { comment: '金额过大' }, q(code));
    expect(await docState(code)).toBe('rejected');
    const view = await maker.ok<ProcessView>(workflowApi.process, undefined, ref(code));
    expect(view.steps.map((s) => s.status)).toEqual(['done', 'rejected']);
  });
});

describe('hooks', () => {
  it('a failing onApprove rolls back the state, the instance, the records and the audit log; 409 with its message', async () => {
    const code = await create('FAIL 额度不足', '1.00', true);
    const before = await countWf(code);
    const r = await risk1.call(SAMPLE_PATHS.audit, { comment: '同意' }, q(code));
    expect([r.status, r.msg]).toEqual([409, '可用额度不足，不能审核']);
    expect(await docState(code)).toBe('pending');
    expect(await countWf(code)).toEqual(before);
    const view = await risk1.ok<ProcessView>(workflowApi.process, undefined, ref(code));
    expect(view).toMatchObject({ status: 'pending', currentStep: 1, endTime: null });
  });

  it('canReject refuses with 409 and changes nothing', async () => {
    const code = await create('LOCKED 有下游', '1.00', true);
    const before = await countWf(code);
    const r = await risk1.call(SAMPLE_PATHS.unAudit, {}, q(code));
    expect([r.status, r.msg]).toEqual([409, '已有下游单据引用，不能驳回']);
    expect(await docState(code)).toBe('pending');
    expect(await countWf(code)).toEqual(before);
  });
});

describe('to-do, circulation and definitions', () => {
  it('to-do lists what the user may decide now, never their own', async () => {
    const code = await create('待办测试', '1.00', true);
    const has = async (c: TestClient) =>
      (await c.ok<Page<{ docCode: string }>>(workflowApi.todo, { pageNum: 1, pageSize: 500 })).list.some(
        (i) => i.docCode === code,
      );
    expect(await has(risk1)).toBe(true);
    expect(await has(admin)).toBe(true);
    expect(await has(maker)).toBe(false); // submitter, though holding the role
    expect(await has(boss)).toBe(false); // not the current step's role
    const counts = await risk1.ok<{ todo: number; toRead: number }>(workflowApi.counts);
    expect(counts.todo).toBeGreaterThan(0);
    await risk1.ok(SAMPLE_PATHS.audit, {}, q(code));
    expect(await has(risk2)).toBe(false);
  });

  it('circulates a document; the recipient sees it to read, opens its views and marks it read', async () => {
    const code = await create('传阅测试', '1.00', true);
    // The picker names colleagues, not their login names (SECURITY.md).
    const users = await maker.ok<{ id: number; realName: string; userName?: string }[]>(workflowApi.users);
    expect(users.every((u) => u.userName === undefined)).toBe(true);
    const bossId = users.find((u) => u.realName === '赵总')!.id;
    const nobodyId = users.find((u) => u.realName === '无权限')!.id;
    expect((await nobody.call(workflowApi.circulate, { userIds: [bossId] }, ref(code))).status).toBe(401);
    const bad = await maker.call(workflowApi.circulate, { userIds: [] }, ref(code));
    expect([bad.status, bad.msg]).toEqual([400, '请选择传阅人']);
    expect((await maker.call(workflowApi.circulate, { userIds: [999999] }, ref(code))).status).toBe(400);
    const missing = await maker.call(workflowApi.circulate, { userIds: [bossId] }, ref('999999999999'));
    expect([missing.status, missing.msg]).toEqual([404, '样例单据不存在']);
    const unknown = await admin.call(workflowApi.process, undefined, {
      query: { docType: 'constructor', docCode: code },
    });
    expect([unknown.status, unknown.msg]).toEqual([400, '单据类型不正确']);
    // nobody cannot see the document before it is circulated to them
    expect((await nobody.call(workflowApi.process, undefined, ref(code))).status).toBe(401);
    await maker.ok(workflowApi.circulate, { userIds: [bossId, nobodyId], message: '请阅' }, ref(code));
    const list = await maker.ok<{ toName: string; readAt: string | null }[]>(
      workflowApi.circulation,
      undefined,
      ref(code),
    );
    expect(list.map((c) => c.toName).sort()).toEqual(['无权限', '赵总'].sort());
    const mine = await nobody.ok<Page<{ id: number; docCode: string; notic: string; message: string }>>(
      workflowApi.toRead,
      {
        read: false,
      },
    );
    const item = mine.list.find((i) => i.docCode === code)!;
    expect(item).toMatchObject({ notic: '样例 传阅测试', message: '请阅' });
    expect((await nobody.call(workflowApi.process, undefined, ref(code))).status).toBe(200);
    const seen = await nobody.ok<{ toName: string; mine: boolean }[]>(
      workflowApi.circulation,
      undefined,
      ref(code),
    );
    expect(seen.map((c) => [c.toName, c.mine]).sort()).toEqual(
      [
        ['无权限', true],
        ['赵总', false],
      ].sort(),
    );
    // someone else cannot mark my item
    expect(
      (await boss.call(workflowApi.markRead, undefined, { query: { id: String(item.id) } })).status,
    ).toBe(404);
    await nobody.ok(workflowApi.markRead, undefined, { query: { id: String(item.id) } });
    const unread = await nobody.ok<Page<{ docCode: string }>>(workflowApi.toRead, { read: false });
    expect(unread.list.some((i) => i.docCode === code)).toBe(false);
    const read = await nobody.ok<Page<{ docCode: string }>>(workflowApi.toRead, { read: true });
    expect(read.list.some((i) => i.docCode === code)).toBe(true);
  });

  it('process definitions: seeded for every document type, saved with an optimistic lock, roles checked', async () => {
    const defs = await admin.ok<ProcessDefList>(workflowApi.defList);
    expect(defs.list.map((d) => d.docType)).toEqual(
      expect.arrayContaining([
        'contract',
        'credit',
        'credDistribution',
        'income',
        'paid',
        'paidRed',
        'compInfoChange',
      ]),
    );
    expect(defs.roles.map((r) => r.code)).toEqual(
      expect.arrayContaining(['admin', 'biz-manager', 'risk', 'gm']),
    );
    const handover = defs.list.find((d) => d.docType === 'handover')!;
    const body = {
      docType: 'handover',
      procName: '资料交接审批',
      version: handover.version,
      steps: [
        { name: '风控复核', roleCode: 'risk' },
        { name: '总经理审批', roleCode: 'gm', minAmount: '100.00' },
      ],
    };
    expect((await maker.call(workflowApi.defSave, body)).status).toBe(401);
    const badRole = await admin.call(workflowApi.defSave, {
      ...body,
      steps: [{ name: 'x', roleCode: 'nope' }],
    });
    expect([badRole.status, badRole.msg]).toEqual([400, '第1步的审批角色不存在或已停用']);
    const onlyThreshold = await admin.call(workflowApi.defSave, {
      ...body,
      steps: [{ name: 'x', roleCode: 'gm', minAmount: '1.00' }],
    });
    expect([onlyThreshold.status, onlyThreshold.msg]).toEqual([400, '至少需要一个不设金额下限的审批步骤']);
    const saved = await admin.ok<{ version: number }>(workflowApi.defSave, body);
    expect(saved.version).toBe(handover.version + 1);
    const stale = await admin.call(workflowApi.defSave, body);
    expect(stale.status).toBe(409);
    const after = (await admin.ok<ProcessDefList>(workflowApi.defList)).list.find(
      (d) => d.docType === 'handover',
    )!;
    expect(after.steps.map((s) => [s.name, s.roleName, s.minAmount])).toEqual([
      ['风控复核', '风控', null],
      ['总经理审批', '总经理', '100.00'],
    ]);
    // 操作日志 shows what the save replaced: the name and the steps, before and after.
    const [row] = await queryRows<{ detail: unknown }>(
      t.database.db,
      sql`select detail from audit_log where entity = 'processDef' and entity_code = 'handover'
          order by id desc limit 1`,
    );
    const { hasBefore, changes } = auditChanges(row!.detail);
    expect(hasBefore).toBe(true);
    // (jsonb keeps the keys in its own order)
    expect(changes.map((c) => [c.label, c.before, c.after]).sort()).toEqual(
      [
        ['流程名称', handover.procName, '资料交接审批'],
        [
          '审批步骤',
          '名称：风控复核；角色编号：risk；起始金额：',
          '名称：风控复核；角色编号：risk；起始金额：、名称：总经理审批；角色编号：gm；起始金额：100.00',
        ],
      ].sort(),
    );
  });
});

describe('seed', () => {
  it('is idempotent: a second start adds nothing, keeps edited processes, never revives a deleted role', async () => {
    const { db } = t.database;
    const snapshot = async () =>
      (
        await queryRows<{ roles: number; grants: number; defs: number; steps: number }>(
          db,
          sql`select (select count(*)::int from roles where deleted_at is null) as roles,
                     (select count(*)::int from role_menus) as grants,
                     (select count(*)::int from wf_process_defs) as defs,
                     (select count(*)::int from wf_process_steps) as steps`,
        )
      )[0]!;
    const before = await snapshot();
    await seedWorkflow(db, false);
    expect(await snapshot()).toEqual(before);
    await db.execute(sql`update roles set deleted_at = now() where code = 'biz-manager'`);
    await seedWorkflow(db, false);
    const [r] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from roles where code = 'biz-manager' and deleted_at is null`,
    );
    expect(r!.n).toBe(0);
    await db.execute(sql`update roles set deleted_at = null where code = 'biz-manager'`);
  });
});

describe('流程监控', () => {
  it('lists every instance with filters, for ft-process holders only', async () => {
    const code = await create('监控测试', '1.00', true);
    expect((await maker.call(workflowApi.instances, { pageNum: 1, pageSize: 20 })).status).toBe(401);
    const all = await admin.ok<Page<{ docCode: string; status: string; stepName: string | null }>>(
      workflowApi.instances,
      {
        pageNum: 1,
        pageSize: 500,
      },
    );
    expect(all.total).toBeGreaterThan(5);
    expect(all.list.find((i) => i.docCode === code)).toMatchObject({
      status: 'pending',
      stepName: '风控复核',
    });
    const found = await admin.ok<Page<{ docCode: string }>>(workflowApi.instances, {
      pageNum: 1,
      pageSize: 20,
      status: 'pending',
      keyword: '监控',
    });
    expect(found.list.map((i) => i.docCode)).toEqual([code]);
    const bad = await admin.call(workflowApi.instances, { pageNum: 1, pageSize: 20, status: 'nope' });
    expect([bad.status, bad.msg]).toEqual([400, '流程状态取值不正确']);
  });
});

describe('self-approval setting', () => {
  it('ALLOW_SELF_APPROVAL lets the maker approve their own document', async () => {
    const solo = await createTestPortal({ ALLOW_SELF_APPROVAL: 'true' }, [sampleModule]);
    try {
      await createUser(solo.database.db, 'solo', '一人公司', ['biz-manager', 'risk']);
      const c = await solo.login('solo');
      const { bizCode } = await c.ok<{ bizCode: string }>(SAMPLE_PATHS.save, {
        title: '自审',
        amount: '1.00',
        submit: true,
      });
      const r = await c.ok<{ state: string }>(SAMPLE_PATHS.audit, {}, q(bizCode));
      expect(r.state).toBe('approved');
    } finally {
      await solo.close();
    }
  });
});

describe.runIf(onPostgres)('concurrency (PostgreSQL)', () => {
  it('two concurrent approvals of one document: exactly one wins, the other gets 409', async () => {
    for (let i = 0; i < 5; i++) {
      const code = await create(`并发${i}`, '1.00', true);
      const results = await Promise.all([
        risk1.call(SAMPLE_PATHS.audit, {}, q(code)),
        risk2.call(SAMPLE_PATHS.audit, {}, q(code)),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.msg).toBe('单据已审核，不能审核');
      const c = await countWf(code);
      expect([c.r, c.e]).toEqual([2, 1]);
      expect(await docState(code)).toBe('approved');
    }
  });

  it('50 concurrent approvals and rejections of one document: exactly one wins, 49 get 409', async () => {
    const code = await create('并发五十', '1.00', true);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? risk1 : risk2).call(i % 5 ? SAMPLE_PATHS.audit : SAMPLE_PATHS.unAudit, {}, q(code)),
      ),
    );
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(49);
    // One submit record and one decision, whatever won.
    expect((await countWf(code)).r).toBe(2);
    expect(['approved', 'rejected']).toContain(await docState(code));
    console.info(`approvals: ${results.length} concurrent on one document, ${won.length} applied`);
  });

  it('approve and reject at once: one wins, the other gets 409', async () => {
    const code = await create('并发驳回', '1.00', true);
    const results = await Promise.all([
      risk1.call(SAMPLE_PATHS.audit, {}, q(code)),
      risk2.call(SAMPLE_PATHS.unAudit, {}, q(code)),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await countWf(code)).r).toBe(2);
  });
});

describe('撤回 and 被驳回 (the maker’s side)', () => {
  const todoOf = async (c: TestClient, code: string) =>
    (
      await c.ok<Page<{ docCode: string; kind: string; reason: string | null; stepName: string }>>(
        workflowApi.todo,
        {
          pageNum: 1,
          pageSize: 500,
        },
      )
    ).list.find((i) => i.docCode === code);

  it('the maker withdraws a submission nobody acted on: a draft again, editable, submittable', async () => {
    const code = await create('撤回测试', '1.00', true);
    expect((await maker.ok<ProcessView>(workflowApi.process, undefined, ref(code))).canWithdraw).toBe(true);
    expect((await risk1.ok<ProcessView>(workflowApi.process, undefined, ref(code))).canWithdraw).toBe(false);
    const r = await maker.ok<{ state: string }>(workflowApi.withdraw, undefined, ref(code));
    expect(r.state).toBe('draft');
    expect(await docState(code)).toBe('draft');
    expect(await todoOf(risk1, code)).toBeUndefined();
    const a = await risk1.call(SAMPLE_PATHS.audit, {}, q(code));
    expect([a.status, a.msg]).toEqual([409, '单据为草稿，不能审核']);
    const resub = await maker.ok<{ flow: { state: string } }>(SAMPLE_PATHS.save, {
      bizCode: code,
      title: '撤回后再提交',
      amount: '1.00',
      submit: true,
    });
    expect(resub.flow.state).toBe('pending');
    const rec = await maker.ok<ApprovalRecord[]>(workflowApi.records, undefined, ref(code));
    expect(rec.map((x) => `${x.round}:${x.action}`)).toEqual(['1:submit', '1:withdraw', '2:submit']);
  });

  it('only the maker may withdraw, and not once an approver acted', async () => {
    const code = await create('撤回权限', '6000000.00', true);
    const other = await admin.call(workflowApi.withdraw, undefined, ref(code));
    expect([other.status, other.msg]).toEqual([401, '只有提交人可以撤回该单据']);
    // The first of two steps approved: the round has been acted on.
    await risk1.ok(SAMPLE_PATHS.audit, {}, q(code));
    expect((await maker.ok<ProcessView>(workflowApi.process, undefined, ref(code))).canWithdraw).toBe(false);
    const late = await maker.call(workflowApi.withdraw, undefined, ref(code));
    expect([late.status, late.msg]).toEqual([409, '审批人已处理，不能撤回']);
    expect(await docState(code)).toBe('pending');
    const draft = await create('草稿不能撤回');
    const d = await maker.call(workflowApi.withdraw, undefined, ref(draft));
    expect([d.status, d.msg]).toEqual([409, '单据为草稿，不能撤回']);
  });

  it('a rejected document is a 被驳回 to-do of its maker with the reason, until submitted again', async () => {
    const code = await create('驳回待办', '1.00', true);
    await risk1.ok(SAMPLE_PATHS.unAudit, { comment: '缺少发票' }, q(code));
    expect(await todoOf(maker, code)).toMatchObject({
      kind: 'rejected',
      reason: '缺少发票',
      stepName: '被驳回',
    });
    expect(await todoOf(risk1, code)).toBeUndefined();
    const view = await maker.ok<ProcessView>(workflowApi.process, undefined, ref(code));
    expect(view.rejection).toMatchObject({ actorName: '李风控', comment: '缺少发票' });
    await maker.ok(SAMPLE_PATHS.save, { bizCode: code, title: '补了发票', amount: '1.00', submit: true });
    expect(await todoOf(maker, code)).toBeUndefined();
    // Rejected again, then deleted: the entry goes with the document.
    await risk2.ok(SAMPLE_PATHS.unAudit, { comment: '仍缺' }, q(code));
    expect((await todoOf(maker, code))?.reason).toBe('仍缺');
    await maker.ok(SAMPLE_PATHS.del, undefined, q(code));
    expect(await todoOf(maker, code)).toBeUndefined();
  });

  it('approve and withdraw at once: exactly one wins, the other gets 409', async () => {
    for (let i = 0; i < 5; i++) {
      const code = await create(`并发撤回${i}`, '1.00', true);
      const [approved, withdrawn] = await Promise.all([
        risk1.call(SAMPLE_PATHS.audit, {}, q(code)),
        maker.call(workflowApi.withdraw, undefined, ref(code)),
      ]);
      expect([approved!.status, withdrawn!.status].sort()).toEqual([200, 409]);
      const state = await docState(code);
      if (approved!.status === 200) {
        expect(state).toBe('approved');
        expect(withdrawn!.msg).toBe('审批人已处理，不能撤回');
      } else {
        expect(state).toBe('draft');
        expect(approved!.msg).toBe('单据为草稿，不能审核');
      }
      // The submit record and exactly one of the decision or the withdrawal.
      expect((await countWf(code)).r).toBe(2);
    }
  });
});
