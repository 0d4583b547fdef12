import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import type { CompanyView } from '@portal/contract/company';
import type {
  CompanyHistoryItem,
  InfoChangeInit,
  InfoChangeRow,
  InfoChangeSave,
  InfoChangeView,
} from '@portal/contract/crm-change';
import { queryRows } from '../../platform/db/client';
import {
  createTestPortal,
  createUserWithCodes,
  onPostgres,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker } from '../credit/testkit';
import { INFO_STALE_MSG } from './info';
import { addCompany, bq, companyApi, companyBody, cq, historyOf, compChangeApi, newUscc } from './testkit';
import { uniqueIndexBrokenBy } from '../../testing/sql-state';

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

/** A change body from the customer's current values with `over` applied. */
async function changeBody(compCode: string, over: Partial<InfoChangeSave> = {}): Promise<InfoChangeSave> {
  const init = await maker.ok<InfoChangeInit>(compChangeApi.init, undefined, cq(compCode));
  const v = init.values;
  return {
    compCode,
    compName: v.compName,
    usccCode: v.usccCode,
    legalPerson: v.legalPerson,
    regCapital: v.regCapital,
    establishDate: v.establishDate,
    compType: v.compType,
    provinceCode: v.provinceCode ?? '',
    cityCode: v.cityCode,
    areaCode: v.areaCode,
    address: v.address,
    industry: v.industry,
    roles: v.roles,
    contactName: v.contactName,
    contactPhone: v.contactPhone,
    contactEmail: v.contactEmail,
    remark: v.remark,
    ...over,
  };
}

const view = (code: string) => maker.ok<InfoChangeView>(compChangeApi.view, undefined, bq(code));
const company = (code: string) => maker.ok<CompanyView>(companyApi.view, undefined, cq(code));

async function submitted(compCode: string, over: Partial<InfoChangeSave>): Promise<Saved> {
  return maker.ok<Saved>(compChangeApi.save, { ...(await changeBody(compCode, over)), submit: true });
}

describe('企业信息变更 (compInfoChange)', () => {
  it('drafts from a snapshot, lists with the changed fields, and allows one open change per customer', async () => {
    const comp = await addCompany(maker, { compName: '快照测试有限公司' });
    const init = await maker.ok<InfoChangeInit>(compChangeApi.init, undefined, cq(comp));
    expect(init).toMatchObject({ compCode: comp, compVersion: 0, openBizCode: null });
    expect(init.values).toMatchObject({ compName: '快照测试有限公司', regCapital: '10000000.00' });

    const nothing = await maker.call(compChangeApi.save, await changeBody(comp));
    expect([nothing.status, nothing.msg]).toEqual([400, '未修改任何企业信息']);
    const badUscc = await maker.call(
      compChangeApi.save,
      await changeBody(comp, { usccCode: '91310115MA1K00000X' }),
    );
    expect(badUscc.status).toBe(400);
    expect(badUscc.msg).toContain('统一社会信用代码');
    const badMoney = await maker.call(compChangeApi.save, await changeBody(comp, { regCapital: '12.345' }));
    expect([badMoney.status, badMoney.msg]).toEqual([400, '注册资本必须是最多两位小数的金额']);
    const badRegion = await maker.call(compChangeApi.save, await changeBody(comp, { cityCode: '110100' }));
    expect([badRegion.status, badRegion.msg]).toEqual([400, '所在城市不属于所选省份']);
    const other = await addCompany(maker, { compName: '占用代码有限公司' });
    const taken = await company(other);
    const dupUscc = await maker.call(
      compChangeApi.save,
      await changeBody(comp, { usccCode: taken.usccCode }),
    );
    expect([dupUscc.status, dupUscc.msg]).toEqual([409, '统一社会信用代码已被企业「占用代码有限公司」使用']);

    const saved = await maker.ok<Saved>(
      compChangeApi.save,
      await changeBody(comp, {
        compName: '快照测试（集团）有限公司',
        regCapital: '12345678.90',
        roles: ['supplier', 'core'],
        reason: '工商变更',
      }),
    );
    expect(saved).toMatchObject({ state: 'draft', version: 0 });
    const second = await maker.call(compChangeApi.save, await changeBody(comp, { legalPerson: '李四' }));
    expect([second.status, second.msg]).toEqual([
      409,
      `该企业已有未完成的信息变更单 ${saved.bizCode}，请先处理该变更单`,
    ]);
    expect((await maker.ok<InfoChangeInit>(compChangeApi.init, undefined, cq(comp))).openBizCode).toBe(
      saved.bizCode,
    );

    const list = await maker.ok<Page<InfoChangeRow>>(compChangeApi.list, { compName: '快照测试' });
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({
      bizCode: saved.bizCode,
      compName: '快照测试有限公司',
      newCompName: '快照测试（集团）有限公司',
      changedFields: ['compName', 'regCapital', 'roles'],
      state: 'draft',
      createdByName: expect.any(String),
    });
    expect(
      (await maker.ok<Page<InfoChangeRow>>(compChangeApi.list, { state: 'pending', compCode: comp })).total,
    ).toBe(0);

    // Edit the draft (optimistic lock), then delete it: the customer may have a new change again.
    const edited = await maker.ok<Saved>(compChangeApi.save, {
      ...(await changeBody(comp, { legalPerson: '李四' })),
      bizCode: saved.bizCode,
      version: saved.version,
    });
    expect(edited.version).toBe(1);
    const stale = await maker.call(compChangeApi.save, {
      ...(await changeBody(comp, { legalPerson: '赵六' })),
      bizCode: saved.bizCode,
      version: saved.version,
    });
    expect(stale.status).toBe(409);
    expect((await view(saved.bizCode)).changedFields).toEqual(['legalPerson']);
    await maker.ok(compChangeApi.del, undefined, bq(saved.bizCode));
    expect((await maker.call(compChangeApi.view, undefined, bq(saved.bizCode))).status).toBe(404);
    const again = await maker.call(compChangeApi.save, await changeBody(comp, { legalPerson: '李四' }));
    expect(again.status).toBe(200);
  });

  it('on approval by another user the customer takes the new values and the old ones go to history', async () => {
    const comp = await addCompany(maker, { compName: '审批测试有限公司', regCapital: '5000000.00' });
    const newUsccCode = newUscc();
    const s = await submitted(comp, {
      compName: '审批测试（新）有限公司',
      usccCode: newUsccCode,
      regCapital: '5000000.01',
      industry: 'C',
      contactName: '钱七',
    });
    expect(s.state).toBe('pending');

    // Pending: no edit, no delete; the maker may not approve (four eyes).
    const edit = await maker.call(compChangeApi.save, {
      ...(await changeBody(comp, { legalPerson: '孙八' })),
      bizCode: s.bizCode,
      version: s.version,
    });
    expect([edit.status, edit.msg]).toEqual([409, '单据审核中，不能修改']);
    const del = await maker.call(compChangeApi.del, undefined, bq(s.bizCode));
    expect([del.status, del.msg]).toEqual([409, '单据审核中，不能删除']);
    const self = await maker.call(compChangeApi.audit, {}, bq(s.bizCode));
    expect([self.status, self.msg]).toEqual([409, '经办人和复核人相同，不可复核']);
    expect((await company(comp)).compName).toBe('审批测试有限公司');

    const r = await checker.ok<{ state: string; finished: boolean }>(
      compChangeApi.audit,
      { comment: '同意' },
      bq(s.bizCode),
    );
    expect(r).toMatchObject({ state: 'approved', finished: true });
    const c = await company(comp);
    expect(c).toMatchObject({
      compName: '审批测试（新）有限公司',
      usccCode: newUsccCode,
      regCapital: '5000000.01',
      industry: 'C',
      contactName: '钱七',
      version: 1,
    });

    // The view still shows the right "before" after approval (the snapshot).
    const v = await view(s.bizCode);
    expect(v.before).toMatchObject({ compName: '审批测试有限公司', regCapital: '5000000.00', industry: 'F' });
    expect(v.after).toMatchObject({ compName: '审批测试（新）有限公司', regCapital: '5000000.01' });
    expect(v.changedFields).toEqual(['compName', 'usccCode', 'regCapital', 'industry', 'contactName']);
    expect(v).toMatchObject({
      state: 'approved',
      baseVersion: 0,
      beforeRegion: expect.stringContaining('上海'),
    });
    expect(v.approvedAt).toBeTruthy();

    const history = await historyOf(maker, comp);
    expect(
      history
        .map((h) => [h.field, h.oldValue, h.newValue, h.bizCode])
        .sort((a, b) => a[0]!.localeCompare(b[0]!)),
    ).toEqual(
      [
        ['compName', '审批测试有限公司', '审批测试（新）有限公司', s.bizCode],
        ['contactName', '张三', '钱七', s.bizCode],
        ['industry', 'F', 'C', s.bizCode],
        ['regCapital', '5000000.00', '5000000.01', s.bizCode],
        ['usccCode', v.before.usccCode, newUsccCode, s.bizCode],
      ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
    expect(history[0]).toMatchObject({ changeType: 'info', changedByName: '复核员' });
    const audit = await queryRows<{ action: string; detail: { bizCode: string } }>(
      t.database.db,
      sql`select action, detail from audit_log where entity = 'company' and entity_code = ${comp} and action = 'change'`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail.bizCode).toBe(s.bizCode);

    // Approved: immutable, not deletable, not approvable again.
    const del2 = await maker.call(compChangeApi.del, undefined, bq(s.bizCode));
    expect([del2.status, del2.msg]).toEqual([409, '单据已审核，不能删除']);
    const again = await checker.call(compChangeApi.audit, {}, bq(s.bizCode));
    expect([again.status, again.msg]).toEqual([409, '单据已审核，不能审核']);
    const reject = await checker.call(compChangeApi.unAudit, {}, bq(s.bizCode));
    expect(reject.status).toBe(409);
  });

  it('refuses approval (409, stays pending) when the customer changed meanwhile; rejected it frees the slot', async () => {
    const comp = await addCompany(maker, { compName: '冲突测试有限公司' });
    const s = await submitted(comp, { legalPerson: '新法人' });
    // Someone edits the customer directly.
    const cur = await company(comp);
    await maker.ok(companyApi.update, {
      ...companyBody(),
      ...cur,
      contactName: '直接修改',
      fileTokens: undefined,
    });
    const r = await checker.call(compChangeApi.audit, {}, bq(s.bizCode));
    expect([r.status, r.msg]).toEqual([409, INFO_STALE_MSG]);
    expect((await view(s.bizCode)).state).toBe('pending');
    expect(await company(comp)).toMatchObject({ legalPerson: '王五', contactName: '直接修改' });
    expect(await historyOf(maker, comp)).toEqual([]);

    await checker.ok(compChangeApi.unAudit, { comment: '企业信息已变，请重新起草' }, bq(s.bizCode));
    expect((await view(s.bizCode)).state).toBe('rejected');
    // Rejected is not open: a new change may be drafted; the old one cannot then be resubmitted.
    const fresh = await maker.ok<Saved>(
      compChangeApi.save,
      await changeBody(comp, { legalPerson: '新法人' }),
    );
    const old = await view(s.bizCode);
    const resubmit = await maker.call(compChangeApi.save, {
      ...(await changeBody(comp, { legalPerson: '新法人' })),
      bizCode: s.bizCode,
      version: old.version,
      submit: true,
    });
    expect([resubmit.status, resubmit.msg]).toEqual([
      409,
      `该企业已有未完成的信息变更单 ${fresh.bizCode}，请先处理该变更单`,
    ]);
    expect((await view(s.bizCode)).state).toBe('rejected');
    // The fresh one was drafted on the current version: it goes through.
    await maker.ok(compChangeApi.save, {
      ...(await changeBody(comp, { legalPerson: '新法人' })),
      bizCode: fresh.bizCode,
      version: fresh.version,
      submit: true,
    });
    await checker.ok(compChangeApi.audit, {}, bq(fresh.bizCode));
    expect(await company(comp)).toMatchObject({ legalPerson: '新法人', contactName: '直接修改' });
  });

  it('refuses to submit a draft whose customer changed since drafting', async () => {
    const comp = await addCompany(maker, { compName: '提交冲突有限公司' });
    const d = await maker.ok<Saved>(compChangeApi.save, await changeBody(comp, { address: '新地址1号' }));
    await maker.ok(companyApi.disable, undefined, cq(comp));
    const r = await maker.call(compChangeApi.save, {
      ...(await changeBody(comp, { address: '新地址1号' })),
      bizCode: d.bizCode,
      version: d.version,
      submit: true,
    });
    expect([r.status, r.msg]).toEqual([409, INFO_STALE_MSG]);
    expect(await view(d.bizCode)).toMatchObject({ state: 'draft', version: d.version });
  });

  it('a customer with an open change cannot be deleted; approval after a deletion is refused', async () => {
    const comp = await addCompany(maker, { compName: '删除检查有限公司' });
    const d = await maker.ok<Saved>(compChangeApi.save, await changeBody(comp, { address: '删除检查路1号' }));
    const del = await maker.call(companyApi.del, undefined, cq(comp));
    expect(del.status).toBe(409);
    expect(del.msg).toContain('存在1张未完成的企业信息变更单');
    // Once the draft is deleted, so can the customer be.
    await maker.ok(compChangeApi.del, undefined, bq(d.bizCode));
    await maker.ok(companyApi.del, undefined, cq(comp));

    // A pending change whose customer vanished anyway (deleted by hand): approval is refused.
    const comp2 = await addCompany(maker, { compName: '删除审批有限公司' });
    const s = await submitted(comp2, { legalPerson: '不会生效' });
    const before = await company(comp2);
    const pendingDel = await maker.call(companyApi.del, undefined, cq(comp2));
    expect(pendingDel.status).toBe(409);
    expect(pendingDel.msg).toContain('存在1张未完成的企业信息变更单');
    await t.database.db.execute(sql`update companies set deleted_at = now() where comp_code = ${comp2}`);
    const r = await checker.call(compChangeApi.audit, {}, bq(s.bizCode));
    expect([r.status, r.msg]).toEqual([409, '企业客户不存在或已删除，不能变更']);
    expect((await view(s.bizCode)).state).toBe('pending');
    const [row] = await queryRows<{ legal_person: string; version: number }>(
      t.database.db,
      sql`select legal_person, version from companies where comp_code = ${comp2}`,
    );
    expect(row).toEqual({ legal_person: '王五', version: before.version });
    expect(await historyOf(maker, comp2)).toEqual([]);
  });

  it('pages the customer history', async () => {
    const comp = await addCompany(maker, { compName: '历史分页有限公司' });
    for (const addr of ['历史路1号', '历史路2号', '历史路3号']) {
      const s = await submitted(comp, { address: addr });
      await checker.ok(compChangeApi.audit, {}, bq(s.bizCode));
    }
    const p1 = await maker.ok<Page<CompanyHistoryItem>>(compChangeApi.history, {
      compCode: comp,
      pageNum: 1,
      pageSize: 2,
    });
    expect([p1.total, p1.list.map((h) => h.newValue)]).toEqual([3, ['历史路3号', '历史路2号']]);
    const p2 = await maker.ok<Page<CompanyHistoryItem>>(compChangeApi.history, {
      compCode: comp,
      pageNum: 2,
      pageSize: 2,
    });
    expect(p2.list.map((h) => h.oldValue)).toEqual(['浦东新区世纪大道1号']);
    const none = await maker.ok<Page<CompanyHistoryItem>>(compChangeApi.history, {
      compCode: comp,
      changeType: 'manager',
      pageNum: 1,
      pageSize: 2,
    });
    expect(none.total).toBe(0);
  });

  it('keeps USCC unique at approval', async () => {
    const a = await addCompany(maker, { compName: '代码甲有限公司' });
    const b = await addCompany(maker, { compName: '代码乙有限公司' });
    const wanted = newUscc();
    const s = await submitted(a, { usccCode: wanted });
    const cur = await company(b);
    await maker.ok(companyApi.update, { ...companyBody(), ...cur, usccCode: wanted, fileTokens: undefined });
    const r = await checker.call(compChangeApi.audit, {}, bq(s.bizCode));
    expect([r.status, r.msg]).toEqual([409, '统一社会信用代码已被企业「代码乙有限公司」使用']);
    expect((await view(s.bizCode)).state).toBe('pending');
  });

  it('holds one open change per customer in the database too (partial unique index)', async () => {
    const comp = await addCompany(maker, { compName: '索引测试有限公司' });
    const d = await maker.ok<Saved>(compChangeApi.save, await changeBody(comp, { remark: '一' }));
    const copy = sql`insert into comp_info_changes (biz_code, comp_code, base_version, before_values, comp_name, uscc_code, comp_type, legal_person, reg_capital, roles, state)
      select '999999999999', comp_code, base_version, before_values, comp_name, uscc_code, comp_type, legal_person, reg_capital, roles, 'pending'
      from comp_info_changes where biz_code = ${d.bizCode}`;
    expect(await uniqueIndexBrokenBy(t.database.db.execute(copy))).toBe('comp_info_changes_open_key');
    await maker.ok(compChangeApi.del, undefined, bq(d.bizCode));
    await t.database.db.execute(copy);
    expect((await view('999999999999')).state).toBe('pending');
  });

  it('holds the permissions: view-only users list but cannot save or approve', async () => {
    await createUserWithCodes(t.database.db, 'infoviewer', 'Viewer@123456', ['crm-cor-info']);
    const viewer = await t.login('infoviewer', 'Viewer@123456');
    expect((await viewer.call(compChangeApi.list, {})).status).toBe(200);
    const comp = await addCompany(maker, { compName: '权限测试有限公司' });
    const body = await changeBody(comp, { remark: '无权' });
    expect((await viewer.call(compChangeApi.save, body)).status).toBe(401);
    expect((await viewer.call(compChangeApi.init, undefined, cq(comp))).status).toBe(401);
    const s = await submitted(comp, { remark: '有权' });
    expect((await viewer.call(compChangeApi.audit, {}, bq(s.bizCode))).status).toBe(401);
    expect((await viewer.call(compChangeApi.del, undefined, bq(s.bizCode))).status).toBe(401);
    expect((await t.client().call(compChangeApi.list, {})).status).toBe(403);
  });
});

describe.runIf(onPostgres)('企业信息变更 on PostgreSQL: concurrency', () => {
  it('an approval racing a direct edit of the customer leaves exactly one of them applied', async () => {
    for (let round = 0; round < 3; round++) {
      const comp = await addCompany(maker, { compName: `并发信息${round}有限公司` });
      const s = await submitted(comp, { legalPerson: `变更法人${round}` });
      const cur = await company(comp);
      const [approve, edit] = await Promise.all([
        checker.call(compChangeApi.audit, {}, bq(s.bizCode)),
        maker.call(companyApi.update, {
          ...companyBody(),
          ...cur,
          contactName: `直接${round}`,
          fileTokens: undefined,
        }),
      ]);
      expect([approve.status, edit.status].sort()).toEqual([200, 409]);
      const after = await company(comp);
      const v = await view(s.bizCode);
      const history = await historyOf(maker, comp);
      expect(after.version).toBe(1);
      if (approve.status === 200) {
        expect(after).toMatchObject({ legalPerson: `变更法人${round}`, contactName: '张三' });
        expect(v.state).toBe('approved');
        expect(history.map((h) => h.field)).toEqual(['legalPerson']);
      } else {
        expect(after).toMatchObject({ legalPerson: '王五', contactName: `直接${round}` });
        expect(v.state).toBe('pending');
        expect(history).toEqual([]);
      }
    }
  });

  it('concurrent drafts for one customer: exactly one is saved', async () => {
    const comp = await addCompany(maker, { compName: '并发起草有限公司' });
    const body = await changeBody(comp, { legalPerson: '并发法人' });
    const results = await Promise.all(Array.from({ length: 5 }, () => maker.call(compChangeApi.save, body)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409))
      expect(r.msg).toMatch(/^该企业已有未完成的信息变更单/);
    expect((await maker.ok<Page<InfoChangeRow>>(compChangeApi.list, { compCode: comp })).total).toBe(1);
  });

  it('several concurrent approvals of one change approve it once', async () => {
    const comp = await addCompany(maker, { compName: '并发审批有限公司' });
    const s = await submitted(comp, { legalPerson: '唯一法人' });
    const checkers = [checker, await addChecker(t, 'checker2'), await addChecker(t, 'checker3')];
    const results = await Promise.all(checkers.map((c) => c.call(compChangeApi.audit, {}, bq(s.bizCode))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(2);
    const after = await company(comp);
    expect(after).toMatchObject({ legalPerson: '唯一法人', version: 1 });
    expect(await historyOf(maker, comp)).toHaveLength(1);
  });
});
