import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import type {
  CompUserOption,
  ManagerChangeInit,
  ManagerChangeRow,
  ManagerChangeSave,
  ManagerChangeView,
} from '@portal/contract/crm-change';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, onPostgres, type TestClient, type TestPortal } from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { MANAGER_STALE_MSG } from './manager';
import { uniqueIndexBrokenBy } from '../../testing/sql-state';
import {
  addCompany,
  addCompUser,
  bq,
  companyApi,
  candidatesOf,
  cq,
  historyOf,
  idCardNo,
  compManagerApi,
  newMobile,
  uploadPdf,
} from './testkit';

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
});
afterAll(() => t.close());

type Saved = { bizCode: string; version: number; state: string };

const view = (code: string) => maker.ok<ManagerChangeView>(compManagerApi.view, undefined, bq(code));

async function managers(compCode: string) {
  return queryRows<{ user_code: string; user_name: string }>(
    t.database.db,
    sql`select user_code, user_name from comp_users where comp_code = ${compCode} and is_manager and deleted_at is null`,
  );
}

async function save(body: ManagerChangeSave) {
  return maker.call<Saved>(compManagerApi.save, body);
}

async function submitted(compCode: string, over: Partial<ManagerChangeSave>): Promise<Saved> {
  const r = await save({
    compCode,
    kind: 'existing',
    reason: '原管理员离职',
    fileTokens: [await uploadPdf(maker)],
    submit: true,
    ...over,
  } as ManagerChangeSave);
  if (r.status !== 200) throw new Error(`${r.status} ${r.msg}`);
  return r.data!;
}

describe('管理员变更 (compManagerChange)', () => {
  it('moves is_manager to an existing enterprise user on approval by another user', async () => {
    const comp = await addCompany(maker, { compName: '管理员甲有限公司' });
    const a = await addCompUser(t.database.db, comp, '老管理员', { manager: true });
    const b = await addCompUser(t.database.db, comp, '新管理员');
    await addCompUser(t.database.db, comp, '停用用户', { state: 'disabled' });
    await addCompUser(t.database.db, comp, '待审用户', { regState: 'pending' });

    const init = await maker.ok<ManagerChangeInit>(compManagerApi.init, undefined, cq(comp));
    expect(init.current).toMatchObject({ userCode: a, userName: '老管理员' });
    // Candidates: enabled, approved, not the administrator.
    expect((await candidatesOf(maker, comp)).list.map((u) => u.userName)).toEqual(['新管理员']);

    // Body rules (400, field named), and the state rules of the choice.
    const noUser = await save({ compCode: comp, kind: 'existing', reason: 'x' });
    expect([noUser.status, noUser.msg]).toEqual([400, '请选择新管理员']);
    const noReason = await save({ compCode: comp, kind: 'existing', newUserCode: b } as ManagerChangeSave);
    expect([noReason.status, noReason.msg]).toEqual([400, '变更原因不能为空']);
    const same = await save({ compCode: comp, kind: 'existing', newUserCode: a, reason: 'x' });
    expect([same.status, same.msg]).toEqual([400, '新管理员已是该企业的管理员']);
    const otherComp = await addCompany(maker, { compName: '别家有限公司' });
    const stranger = await addCompUser(t.database.db, otherComp, '别家用户');
    const foreign = await save({ compCode: comp, kind: 'existing', newUserCode: stranger, reason: 'x' });
    expect([foreign.status, foreign.msg]).toEqual([400, '新管理员不是该企业的企业用户']);
    // Submitting without the authorisation letter writes nothing.
    const noLetter = await save({
      compCode: comp,
      kind: 'existing',
      newUserCode: b,
      reason: '离职',
      submit: true,
    });
    expect([noLetter.status, noLetter.msg]).toEqual([400, '请上传授权委托书']);
    expect((await maker.ok<Page<ManagerChangeRow>>(compManagerApi.list, { compCode: comp })).total).toBe(0);

    const s = await submitted(comp, { newUserCode: b });
    expect(s.state).toBe('pending');
    const list = await maker.ok<Page<ManagerChangeRow>>(compManagerApi.list, { compName: '管理员甲' });
    expect(list.list).toEqual([
      expect.objectContaining({
        bizCode: s.bizCode,
        compName: '管理员甲有限公司',
        oldManagerName: '老管理员',
        newManagerName: '新管理员',
        kind: 'existing',
        state: 'pending',
      }),
    ]);
    const edit = await save({
      bizCode: s.bizCode,
      version: s.version,
      compCode: comp,
      kind: 'existing',
      newUserCode: b,
      reason: '改',
    });
    expect([edit.status, edit.msg]).toEqual([409, '单据审核中，不能修改']);
    const self = await maker.call(compManagerApi.audit, {}, bq(s.bizCode));
    expect([self.status, self.msg]).toEqual([409, '经办人和复核人相同，不可复核']);
    expect(await managers(comp)).toEqual([{ user_code: a, user_name: '老管理员' }]);

    await checker.ok(compManagerApi.audit, { comment: '同意' }, bq(s.bizCode));
    expect(await managers(comp)).toEqual([{ user_code: b, user_name: '新管理员' }]);
    const v = await view(s.bizCode);
    expect(v).toMatchObject({
      state: 'approved',
      reason: '原管理员离职',
      oldManager: { userCode: a, userName: '老管理员' },
      newManager: { userCode: b, userName: '新管理员' },
    });
    expect(v.files.map((f) => f.originFileName)).toEqual(['授权委托书.pdf']);
    const history = await historyOf(maker, comp);
    expect(history).toEqual([
      expect.objectContaining({
        bizCode: s.bizCode,
        changeType: 'manager',
        field: 'manager',
        fieldLabel: '管理员',
        oldValue: expect.stringContaining('老管理员'),
        newValue: expect.stringContaining('新管理员'),
      }),
    ]);
    const del = await maker.call(compManagerApi.del, undefined, bq(s.bizCode));
    expect([del.status, del.msg]).toEqual([409, '单据已审核，不能删除']);
  });

  it('creates a new person as the administrator, checking mobile and id card', async () => {
    const comp = await addCompany(maker, { compName: '管理员乙有限公司' });
    const a = await addCompUser(t.database.db, comp, '原管理员', { manager: true });
    const [used] = await queryRows<{ mobile: string }>(
      t.database.db,
      sql`select mobile from comp_users where user_code = ${a}`,
    );
    const base = { compCode: comp, kind: 'new' as const, newUserName: '新人', reason: '更换' };
    const badId = await save({ ...base, newMobile: newMobile(), newIdCardNo: '310115199003071230' });
    expect([badId.status, badId.msg]).toEqual([400, '新管理员身份证号格式不正确']);
    const badMobile = await save({ ...base, newMobile: '12345', newIdCardNo: idCardNo() });
    expect([badMobile.status, badMobile.msg]).toEqual([400, '新管理员手机号格式不正确']);
    const dupMobile = await save({ ...base, newMobile: used!.mobile, newIdCardNo: idCardNo() });
    expect([dupMobile.status, dupMobile.msg]).toEqual([
      400,
      '新管理员手机号已被企业用户「原管理员」使用，请选择已有企业用户',
    ]);
    const missing = await save({ compCode: comp, kind: 'new', reason: '更换' });
    expect([missing.status, missing.msg]).toEqual([400, '新管理员姓名不能为空']);

    const mobile = newMobile();
    // Draft first, then edit and submit it with the letter.
    const d = (await save({ ...base, newMobile: mobile, newIdCardNo: idCardNo() })).data!;
    expect(d.state).toBe('draft');
    const s = await maker.ok<Saved>(compManagerApi.save, {
      ...base,
      bizCode: d.bizCode,
      version: d.version,
      newUserName: '新任管理员',
      newMobile: mobile,
      newIdCardNo: idCardNo(),
      fileTokens: [await uploadPdf(maker)],
      submit: true,
    });
    expect(s.state).toBe('pending');
    await checker.ok(compManagerApi.audit, {}, bq(s.bizCode));
    const m = await managers(comp);
    expect(m).toHaveLength(1);
    expect(m[0]!.user_name).toBe('新任管理员');
    const [created] = await queryRows<{ reg_state: string; mobile: string; id_card_no: string }>(
      t.database.db,
      sql`select reg_state, mobile, id_card_no from comp_users where user_code = ${m[0]!.user_code}`,
    );
    expect(created).toEqual({ reg_state: 'approved', mobile, id_card_no: idCardNo() });
    expect((await view(s.bizCode)).newManager.userCode).toBe(m[0]!.user_code);
  });

  it('a customer without an administrator gets its first one', async () => {
    const comp = await addCompany(maker, { compName: '无管理员有限公司' });
    const u = await addCompUser(t.database.db, comp, '首任管理员');
    expect((await maker.ok<ManagerChangeInit>(compManagerApi.init, undefined, cq(comp))).current).toBeNull();
    const s = await submitted(comp, { newUserCode: u });
    await checker.ok(compManagerApi.audit, {}, bq(s.bizCode));
    expect(await managers(comp)).toEqual([{ user_code: u, user_name: '首任管理员' }]);
    expect((await view(s.bizCode)).oldManager).toBeNull();
  });

  it('refuses a rival change drafted against an administrator who is no longer one (stays pending)', async () => {
    const comp = await addCompany(maker, { compName: '管理员丙有限公司' });
    await addCompUser(t.database.db, comp, '甲', { manager: true });
    const b = await addCompUser(t.database.db, comp, '乙');
    const c = await addCompUser(t.database.db, comp, '丙');
    const first = await submitted(comp, { newUserCode: b });
    const second = await submitted(comp, { newUserCode: c });
    await checker.ok(compManagerApi.audit, {}, bq(first.bizCode));
    const r = await checker.call(compManagerApi.audit, {}, bq(second.bizCode));
    expect([r.status, r.msg]).toEqual([409, MANAGER_STALE_MSG]);
    expect((await view(second.bizCode)).state).toBe('pending');
    expect(await managers(comp)).toEqual([{ user_code: b, user_name: '乙' }]);
    await checker.ok(compManagerApi.unAudit, { comment: '请重新起草' }, bq(second.bizCode));
    const rejected = await view(second.bizCode);
    expect(rejected.state).toBe('rejected');
    // Saving the rejected one again drafts it against the administrator as it is now (乙).
    const again = await save({
      bizCode: second.bizCode,
      version: rejected.version,
      compCode: comp,
      kind: 'existing',
      newUserCode: c,
      reason: '再试',
      submit: true,
    });
    expect([again.status, again.data?.state]).toEqual([200, 'pending']);
    expect((await view(second.bizCode)).oldManager).toMatchObject({ userCode: b, userName: '乙' });
    await checker.ok(compManagerApi.audit, {}, bq(second.bizCode));
    expect(await managers(comp)).toEqual([{ user_code: c, user_name: '丙' }]);
    // A draft may be deleted.
    const d = (await save({ compCode: comp, kind: 'existing', newUserCode: b, reason: '草稿' })).data!;
    await maker.ok(compManagerApi.del, undefined, bq(d.bizCode));
    expect((await maker.call(compManagerApi.view, undefined, bq(d.bizCode))).status).toBe(404);
  });

  it('the database allows one administrator per customer', async () => {
    const comp = await addCompany(maker, { compName: '唯一管理员有限公司' });
    await addCompUser(t.database.db, comp, '甲', { manager: true });
    expect(await uniqueIndexBrokenBy(addCompUser(t.database.db, comp, '乙', { manager: true }))).toBe(
      'comp_users_manager_key',
    );
    expect(await managers(comp)).toHaveLength(1);
  });

  it('refuses approval when the chosen user was disabled meanwhile', async () => {
    const comp = await addCompany(maker, { compName: '管理员丁有限公司' });
    const b = await addCompUser(t.database.db, comp, '将停用');
    const s = await submitted(comp, { newUserCode: b });
    await t.database.db.execute(sql`update comp_users set state = 'disabled' where user_code = ${b}`);
    const r = await checker.call(compManagerApi.audit, {}, bq(s.bizCode));
    expect([r.status, r.msg]).toEqual([409, '新管理员已不是该企业的有效企业用户，请驳回本变更单']);
    expect(await managers(comp)).toEqual([]);
  });

  it('refuses an enterprise user whose registration is not approved, at save and at approval', async () => {
    const comp = await addCompany(maker, { compName: '管理员戊有限公司' });
    const a = await addCompUser(t.database.db, comp, '现管理员', { manager: true });
    const p = await addCompUser(t.database.db, comp, '未审核', { regState: 'pending' });
    const r = await save({ compCode: comp, kind: 'existing', newUserCode: p, reason: 'x' });
    expect([r.status, r.msg]).toEqual([400, '新管理员「未审核」的注册尚未审核通过']);
    expect((await maker.ok<Page<ManagerChangeRow>>(compManagerApi.list, { compCode: comp })).total).toBe(0);

    const b = await addCompUser(t.database.db, comp, '已审核');
    const s = await submitted(comp, { newUserCode: b });
    await t.database.db.execute(sql`update comp_users set reg_state = 'pending' where user_code = ${b}`);
    const ap = await checker.call(compManagerApi.audit, {}, bq(s.bizCode));
    expect([ap.status, ap.msg]).toEqual([409, '新管理员的注册尚未审核通过，请驳回本变更单']);
    expect(await managers(comp)).toEqual([{ user_code: a, user_name: '现管理员' }]);
    expect((await view(s.bizCode)).state).toBe('pending');
  });

  it('saving a draft again records the administrator as it is now', async () => {
    const comp = await addCompany(maker, { compName: '管理员己有限公司' });
    const a = await addCompUser(t.database.db, comp, '起草时管理员', { manager: true });
    const b = await addCompUser(t.database.db, comp, '候选人');
    const c = await addCompUser(t.database.db, comp, '后任管理员');
    const draft = await save({ compCode: comp, kind: 'existing', newUserCode: b, reason: '调整' });
    expect(draft.status).toBe(200);
    expect((await view(draft.data!.bizCode)).oldManager?.userCode).toBe(a);
    // The administrator changes by other means while the draft waits.
    await t.database.db.execute(sql`update comp_users set is_manager = false where user_code = ${a}`);
    await t.database.db.execute(sql`update comp_users set is_manager = true where user_code = ${c}`);
    const again = await save({
      bizCode: draft.data!.bizCode,
      version: draft.data!.version,
      compCode: comp,
      kind: 'existing',
      newUserCode: b,
      reason: '调整',
      fileTokens: [await uploadPdf(maker)],
      submit: true,
    });
    expect([again.status, again.data?.state]).toEqual([200, 'pending']);
    expect((await view(draft.data!.bizCode)).oldManager).toMatchObject({
      userCode: c,
      userName: '后任管理员',
    });
    await checker.ok(compManagerApi.audit, { comment: '同意' }, bq(draft.data!.bizCode));
    expect(await managers(comp)).toEqual([{ user_code: b, user_name: '候选人' }]);
  });

  it('pages and searches the candidates for the new administrator', async () => {
    const comp = await addCompany(maker, { compName: '管理员庚有限公司' });
    for (let i = 1; i <= 25; i++) await addCompUser(t.database.db, comp, `员工${String(i).padStart(2, '0')}`);
    const first = await maker.ok<Page<CompUserOption>>(compManagerApi.users, {
      compCode: comp,
      pageNum: 1,
      pageSize: 10,
    });
    expect([first.total, first.list.length, first.list[0]!.userName]).toEqual([25, 10, '员工01']);
    const third = await maker.ok<Page<CompUserOption>>(compManagerApi.users, {
      compCode: comp,
      pageNum: 3,
      pageSize: 10,
    });
    expect(third.list.map((u) => u.userName)).toEqual(['员工21', '员工22', '员工23', '员工24', '员工25']);
    const found = await candidatesOf(maker, comp, '员工1');
    expect(found.total).toBe(10);
    const bad = await maker.call(compManagerApi.users, { pageNum: 1, pageSize: 10 });
    expect([bad.status, bad.msg]).toEqual([400, '企业客户不能为空']);
  });

  it('a customer with an open change cannot be deleted; approval after a deletion is refused', async () => {
    const comp = await addCompany(maker, { compName: '管理员辛有限公司' });
    const a = await addCompUser(t.database.db, comp, '辛管理员', { manager: true });
    const b = await addCompUser(t.database.db, comp, '辛候选');
    const draft = await save({ compCode: comp, kind: 'existing', newUserCode: b, reason: '调整' });
    expect(draft.status).toBe(200);
    const del = await maker.call(companyApi.del, undefined, cq(comp));
    expect(del.status).toBe(409);
    expect(del.msg).toContain('存在1张未完成的管理员变更单');

    // Submitted, then the customer disappears (deleted before this check existed, or by hand).
    const s = await submitted(comp, {
      bizCode: draft.data!.bizCode,
      version: draft.data!.version,
      newUserCode: b,
    });
    await t.database.db.execute(sql`update companies set deleted_at = now() where comp_code = ${comp}`);
    const ap = await checker.call(compManagerApi.audit, {}, bq(s.bizCode));
    expect([ap.status, ap.msg]).toEqual([409, '企业客户不存在或已删除，不能变更管理员']);
    expect(await managers(comp)).toEqual([{ user_code: a, user_name: '辛管理员' }]);
    const [row] = await queryRows<{ state: string }>(
      t.database.db,
      sql`select state from comp_manager_changes where biz_code = ${s.bizCode}`,
    );
    expect(row?.state).toBe('pending');
    expect(await historyOf(maker, comp)).toEqual([]);
  });
});

describe.runIf(onPostgres)('管理员变更 on PostgreSQL: concurrency', () => {
  it('concurrent approvals of rival changes for one customer leave exactly one administrator', async () => {
    const checkers = [checker];
    for (let i = 2; i <= 5; i++) checkers.push(await addChecker(t, `mgchecker${i}`));
    for (let round = 0; round < 3; round++) {
      const comp = await addCompany(maker, { compName: `并发管理员${round}有限公司` });
      await addCompUser(t.database.db, comp, '现任', { manager: true });
      const rivals: { bizCode: string; name: string }[] = [];
      for (let i = 0; i < 5; i++) {
        const name = `候选${i}`;
        const over: Partial<ManagerChangeSave> =
          i % 2 === 0
            ? { newUserCode: await addCompUser(t.database.db, comp, name) }
            : { kind: 'new', newUserName: name, newMobile: newMobile(), newIdCardNo: idCardNo() };
        rivals.push({ bizCode: (await submitted(comp, over)).bizCode, name });
      }
      const results = await Promise.all(
        rivals.map((r, i) => checkers[i]!.call(compManagerApi.audit, {}, bq(r.bizCode))),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
      const winner = rivals[results.findIndex((r) => r.status === 200)]!;
      const m = await managers(comp);
      expect(m).toHaveLength(1);
      expect(m[0]!.user_name).toBe(winner.name);
      for (const r of rivals)
        expect((await view(r.bizCode)).state).toBe(r === winner ? 'approved' : 'pending');
      const history = await historyOf(maker, comp);
      expect(history.map((h) => h.bizCode)).toEqual([winner.bizCode]);
    }
  });
});
