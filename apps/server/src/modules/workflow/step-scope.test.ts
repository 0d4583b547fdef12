import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import { ADMIN_CODE, ALL_CODES } from '@portal/contract/menus';
import { MESSAGE_PATHS, type MessageView } from '@portal/contract/messages';
import {
  docRefQuery,
  WORKFLOW_PATHS,
  type ProcessView,
  type TodoItem,
  type WorkflowCounts,
} from '@portal/contract/workflow';
import { queryRows } from '../../platform/db/client';
import { tableChecksums } from '../../testing/checksum';
import {
  createDept,
  createTestPortal,
  createUserWithCodes,
  servedPaths,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addCustomer, creditApi, platform } from '../credit/testkit';
import { createUser } from './testkit';

/**
 * Issue 39: holding an approval step's role reaches a document only inside the data scope that role
 * grants (deciders.ts). Two organisations; 风控 scoped 本组织 (as the penetration test had it); a
 * credit submitted in each. 甲's 风控 sees, lists, is told of and decides 甲's credit only; every
 * route naming a document by docType and docCode (from the route table) answers 404 for 乙's.
 */
const workflowApi = servedPaths(WORKFLOW_PATHS);
const messageApi = servedPaths(MESSAGE_PATHS);
const PASSWORD = 'Maker@12345678';

let t: TestPortal;
let riskA: TestClient;
let riskB: TestClient;
/** 甲's 风控 who also holds a role of scope 全部数据 without any screen. */
let riskWide: TestClient;
let riskBId: number;
let creditA: string;
let creditB: string;

async function submittedCredit(maker: TestClient, name: string): Promise<string> {
  const custCode = await addCustomer(t.database.db, name);
  const s = await maker.ok<{ bizCode: string; version: number }>(
    creditApi.saveCreditPlatform,
    platform(custCode),
  );
  await maker.ok(creditApi.saveCreditPlatform, {
    ...platform(custCode),
    bizCode: s.bizCode,
    version: s.version,
    submit: true,
  });
  return s.bizCode;
}

/** A user holding the 风控 role in an organisation (the admin's password, as createUser gives). */
async function riskIn(userName: string, deptId: number): Promise<number> {
  const id = await createUser(t.database.db, userName, userName, ['risk']);
  await t.database.db.execute(sql`update users set dept_id = ${deptId} where id = ${id}`);
  return id;
}

beforeAll(async () => {
  t = await createTestPortal();
  const { db } = t.database;
  const jia = await createDept(db, '甲部');
  const yi = await createDept(db, '乙部');
  await db.execute(sql`update roles set data_scope = 'dept' where code = 'risk'`);
  const everything = [...ALL_CODES].filter((c) => c !== ADMIN_CODE);
  await createUserWithCodes(db, 'maker-a', PASSWORD, everything, { deptId: jia.id });
  await createUserWithCodes(db, 'maker-b', PASSWORD, everything, { deptId: yi.id });
  await riskIn('risk-a', jia.id);
  riskBId = await riskIn('risk-b', yi.id);
  const wide = await riskIn('risk-wide', jia.id);
  const { roleId } = await createUserWithCodes(db, 'wide-holder', PASSWORD, [], { dataScope: 'all' });
  await db.execute(sql`insert into user_roles (user_id, role_id) values (${wide}, ${roleId})`);
  riskA = await t.login('risk-a');
  riskB = await t.login('risk-b');
  riskWide = await t.login('risk-wide');
  creditA = await submittedCredit(await t.login('maker-a', PASSWORD), '甲客户有限公司');
  creditB = await submittedCredit(await t.login('maker-b', PASSWORD), '乙客户有限公司');
}, 120_000);
afterAll(() => t.close());

const ref = (docCode: string) => ({ docType: 'credit', docCode });
/** The routes naming a document by docType and docCode: the approval views, circulate, withdraw. */
const documentRoutes = () => t.portal.routes.filter((r) => r.query === docRefQuery);

async function todoCodes(c: TestClient): Promise<string[]> {
  const page = await c.ok<Page<TodoItem>>(workflowApi.todo, { pageNum: 1, pageSize: 100 });
  expect((await c.ok<WorkflowCounts>(workflowApi.counts)).todo).toBe(page.total);
  return page.list.map((i) => i.docCode);
}

async function toldOf(c: TestClient): Promise<string[]> {
  const page = await c.ok<Page<MessageView>>(messageApi.list, { pageNum: 1, pageSize: 100 });
  return page.list.filter((m) => m.kind === 'todo').map((m) => m.docCode);
}

describe('an approval step reaches a document only inside its role’s data scope', () => {
  it('every route naming a document answers 404 for the other organisation’s, writing nothing', async () => {
    const routes = documentRoutes();
    expect(routes.map((r) => r.path).sort()).toEqual(
      [
        WORKFLOW_PATHS.circulate,
        WORKFLOW_PATHS.circulation,
        WORKFLOW_PATHS.process,
        WORKFLOW_PATHS.records,
        WORKFLOW_PATHS.withdraw,
      ]
        .map((p) => `/api${p}`)
        .sort(),
    );
    const before = await tableChecksums(t.database.db);
    for (const [client, code] of [
      [riskA, creditB],
      [riskB, creditA],
    ] as const) {
      for (const r of routes) {
        const res = await client.call(r.path, r.body ? { userIds: [riskBId] } : undefined, {
          query: ref(code),
        });
        expect([res.httpStatus, res.msg], r.path).toEqual([404, '授信不存在']);
      }
    }
    expect(await tableChecksums(t.database.db)).toEqual(before);
  });

  it('its own organisation’s document: the views answer, and the step may be decided', async () => {
    for (const path of [WORKFLOW_PATHS.process, WORKFLOW_PATHS.records, WORKFLOW_PATHS.circulation])
      expect((await riskA.call(`/api${path}`, undefined, { query: ref(creditA) })).httpStatus, path).toBe(
        200,
      );
    const view = await riskA.ok<ProcessView>(workflowApi.process, undefined, { query: ref(creditA) });
    expect([view.canApprove, view.cannotReason]).toEqual([true, null]);
    // The maker only may withdraw: the route reached its own rule.
    const withdraw = await riskA.call(workflowApi.withdraw, undefined, { query: ref(creditA) });
    expect(withdraw.httpStatus).toBe(401);
  });

  it('我的待办 and its count hold only the role’s scope', async () => {
    const a = await todoCodes(riskA);
    expect(a).toContain(creditA);
    expect(a).not.toContain(creditB);
    const b = await todoCodes(riskB);
    expect(b).toContain(creditB);
    expect(b).not.toContain(creditA);
  });

  it('待审批 messages go only to the deciders inside the scope', async () => {
    expect(await toldOf(riskA)).toEqual([creditA]);
    expect(await toldOf(riskB)).toEqual([creditB]);
  });

  it('the role’s own scope counts, not the widest of the user’s roles', async () => {
    expect(await todoCodes(riskWide)).toEqual([creditA]);
    expect(await toldOf(riskWide)).toEqual([creditA]);
    const before = await tableChecksums(t.database.db);
    const res = await riskWide.call(
      creditApi.passCredit,
      { comment: '越权' },
      { query: { bizCode: creditB } },
    );
    expect([res.httpStatus, res.msg]).toEqual([401, '当前审批步骤「风控复核」需由风控审批']);
    const view = await riskWide.ok<ProcessView>(workflowApi.process, undefined, { query: ref(creditB) });
    expect(view.canApprove).toBe(false);
    expect(await tableChecksums(t.database.db)).toEqual(before);
  });

  it('本部门 and 自定义 on the step role reach only what that role names', async () => {
    const { db } = t.database;
    const [jia] = await queryRows<{ id: number }>(db, sql`select id from depts where name = '甲部'`);
    const sub = await createDept(db, '甲一部', Number(jia!.id));
    const everything = [...ALL_CODES].filter((c) => c !== ADMIN_CODE);
    await createUserWithCodes(db, 'maker-a1', PASSWORD, everything, { deptId: sub.id });
    const creditA1 = await submittedCredit(await t.login('maker-a1', PASSWORD), '甲一客户有限公司');
    const sees = async (code: string) =>
      (await riskA.call(workflowApi.process, undefined, { query: ref(code) })).httpStatus;
    // 本组织及下级: 甲 and the organisation below it.
    expect([await sees(creditA), await sees(creditA1)]).toEqual([200, 200]);
    try {
      await db.execute(sql`update roles set data_scope = 'deptOnly' where code = 'risk'`);
      expect([await sees(creditA), await sees(creditA1)]).toEqual([200, 404]);
      expect(await todoCodes(riskA)).not.toContain(creditA1);
      await db.execute(sql`update roles set data_scope = 'custom' where code = 'risk'`);
      await db.execute(
        sql`insert into role_depts (role_id, dept_id) select id, ${sub.id} from roles where code = 'risk'`,
      );
      expect([await sees(creditA), await sees(creditA1)]).toEqual([404, 200]);
    } finally {
      await db.execute(
        sql`delete from role_depts where role_id in (select id from roles where code = 'risk')`,
      );
      await db.execute(sql`update roles set data_scope = 'dept' where code = 'risk'`);
    }
  });

  it('the other organisation’s 风控 is refused the decision; ours decides', async () => {
    const refused = await riskB.call(
      creditApi.passCredit,
      { comment: '越权' },
      { query: { bizCode: creditA } },
    );
    expect(refused.httpStatus).toBe(404);
    const passed = await riskA.call<{ state: string }>(
      creditApi.passCredit,
      { comment: '同意' },
      { query: { bizCode: creditA } },
    );
    expect([passed.httpStatus, passed.data?.state]).toEqual([200, 'approved']);
    // Its history stays out of the other organisation's reach.
    const records = await riskB.call(workflowApi.records, undefined, { query: ref(creditA) });
    expect(records.httpStatus).toBe(404);
  });
});
