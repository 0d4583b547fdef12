import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import {
  ADMISSION_MENU,
  ADMISSION_PATHS,
  NOT_ADMITTED,
  type AdmissionRow,
  type AdmissionSave,
  type AdmissionView,
} from '@portal/contract/admission';
import type { CompanyView, DictItem } from '@portal/contract/company';
import { FILE_PATHS } from '@portal/contract/files';
import { buttonCode } from '@portal/contract/menus';
import { WITHDRAW_TOO_LATE_MSG, WORKFLOW_PATHS } from '@portal/contract/workflow';
import { nextCode } from '../../platform/db/codes';
import { hashPassword } from '../../platform/auth/password-hash';
import { queryRows } from '../../platform/db/client';
import {
  createTestPortal,
  createUserWithCodes,
  onPostgres,
  servedPaths,
  type TestClient,
  type TestPortal,
  TEST_PASSWORD_HASH_COST,
} from '../../testing/harness';
import { addChecker, addCustomer, creditApi, platform } from '../credit/testkit';
import { contractApi, contractFixture, contractBody } from '../contract/testkit';
import { addCompany, companyApi, companyBody, cq, idCardNo, uploadPdf } from '../crm-change/testkit';
import { SELF_APPROVAL_MSG } from '../workflow/service';

const admissionApi = servedPaths(ADMISSION_PATHS);
const PW = 'Staff@123456';

let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
let biz: TestClient;
let risk: TestClient;

/** A user holding one of the roles the workflow seed made (业务部 biz-manager, 风控 risk). */
async function staffWith(userName: string, roleCode: string): Promise<TestClient> {
  const { db } = t.database;
  await db.execute(sql`insert into users (user_code, user_name, real_name, password_hash)
    values (${await nextCode(db, 'user')}, ${userName}, ${userName}, ${await hashPassword(PW, TEST_PASSWORD_HASH_COST)})`);
  await db.execute(
    sql`insert into user_roles select u.id, r.id from users u, roles r where u.user_name = ${userName} and r.code = ${roleCode}`,
  );
  return t.login(userName, PW);
}

beforeAll(async () => {
  t = await createTestPortal();
  admin = await t.login();
  checker = await addChecker(t);
  biz = await staffWith('biz1', 'biz-manager');
  risk = await staffWith('risk1', 'risk');
});
afterAll(() => t.close());

type Saved = { bizCode: string; version: number; state: string };
const bq = (bizCode: string) => ({ query: { bizCode } });
const ref = (code: string) => ({ query: { docType: 'custAdmission', docCode: code } });

let accountSeq = 0;
async function addAccount(client: TestClient, compCode: string): Promise<string> {
  accountSeq++;
  const r = await client.ok<{ bizCode: string }>('/api/ft/api/bank/save', {
    ownerType: 'customer',
    ownerCode: compCode,
    bankCode: '102',
    branchName: '上海分行营业部',
    accountName: '客户收款户',
    accountNo: `62220210${String(10_000_000 + accountSeq)}`,
    purpose: 'collect',
  });
  return r.bizCode;
}

/** A 准入单 body for the customer with four freshly uploaded KYC files. */
async function admissionBody(
  client: TestClient,
  compCode: string,
  bankBizCode: string,
  over: Partial<AdmissionSave> = {},
): Promise<AdmissionSave> {
  return {
    compCode,
    legalIdNo: idCardNo(),
    controllerName: '王五（持股70%）',
    bankBizCode,
    licenseFile: await uploadPdf(client, '营业执照.pdf'),
    legalIdFile: await uploadPdf(client, '法人身份证.pdf'),
    controllerFile: await uploadPdf(client, '受益所有人声明.pdf'),
    bankProofFile: await uploadPdf(client, '开户许可证.pdf'),
    ...over,
  };
}

/** A new customer and account entered by `client`, with its 准入单 submitted. */
async function submittedFor(client: TestClient, name: string) {
  const compCode = await addCompany(client, { compName: name });
  const bank = await addAccount(client, compCode);
  const saved = await client.ok<Saved>(admissionApi.save, {
    ...(await admissionBody(client, compCode, bank)),
    submit: true,
  });
  return { compCode, bank, bizCode: saved.bizCode };
}

const company = (code: string) => admin.ok<CompanyView>(companyApi.view, undefined, cq(code));

describe('客户准入 (custAdmission)', () => {
  it('业务部 enters a customer and raises its 准入; only once 风控 approves may it hold a credit', async () => {
    const compCode = await addCompany(biz, { compName: '准入测试甲有限公司' });
    expect(await company(compCode)).toMatchObject({ admission: 'pending', admissionCode: null });

    // Not admitted: no credit, and the credit form's picker does not offer it.
    const refused = await admin.call(creditApi.saveCreditPlatform, platform(compCode));
    expect([refused.status, refused.msg]).toEqual([409, NOT_ADMITTED('客户', '准入测试甲有限公司')]);
    const admitted = await admin.ok<DictItem[]>(companyApi.dict, { admitted: true });
    expect(admitted.map((d) => d.code)).not.toContain(compCode);
    expect((await admin.ok<DictItem[]>(companyApi.dict, {})).map((d) => d.code)).toContain(compCode);

    const bank = await addAccount(biz, compCode);
    const body = await admissionBody(biz, compCode, bank);
    const bad: [Partial<AdmissionSave>, number, string][] = [
      [{ licenseFile: undefined }, 400, '请上传营业执照'],
      [{ bankProofFile: undefined }, 400, '请上传银行账户证明'],
      [{ legalIdNo: '110105194912310021' }, 400, '法定代表人身份证号格式不正确'],
      [{ controllerName: '' }, 400, '实际控制人/受益所有人不能为空'],
      [{ bankBizCode: await addAccount(admin, await addCompany(admin)) }, 400, '银行账户不属于所选客户'],
    ];
    for (const [over, status, msg] of bad) {
      const r = await biz.call(admissionApi.save, { ...body, ...over });
      expect([r.status, r.msg], msg).toEqual([status, msg]);
    }

    const saved = await biz.ok<Saved>(admissionApi.save, { ...body, submit: true });
    expect(saved.state).toBe('pending');
    // One open 准入单 per customer.
    const second = await biz.call(admissionApi.save, await admissionBody(biz, compCode, bank));
    expect(second.status).toBe(409);
    expect(second.msg).toContain(saved.bizCode);

    const view = await risk.ok<AdmissionView>(admissionApi.view, undefined, bq(saved.bizCode));
    expect(view).toMatchObject({ compName: '准入测试甲有限公司', controllerName: '王五（持股70%）' });
    expect(view.files.licenseFile?.originFileName).toBe('营业执照.pdf');
    expect(view.files.bankProofFile?.originFileName).toBe('开户许可证.pdf');

    // 业务部 may not decide; 风控 may.
    // Without the button: 401, as every refused button.
    expect((await biz.call(admissionApi.audit, {}, bq(saved.bizCode))).status).toBe(401);
    await risk.ok(admissionApi.audit, {}, bq(saved.bizCode));
    expect(await company(compCode)).toMatchObject({ admission: 'admitted', admissionCode: saved.bizCode });
    expect((await admin.ok<DictItem[]>(companyApi.dict, { admitted: true })).map((d) => d.code)).toContain(
      compCode,
    );

    // Now a credit can be saved; a further 准入 is refused.
    await admin.ok(creditApi.saveCreditPlatform, platform(compCode));
    const again = await biz.call(admissionApi.save, await admissionBody(biz, compCode, bank));
    expect([again.status, again.msg]).toEqual([
      409,
      '企业客户「准入测试甲有限公司」已准入，无需再办理客户准入',
    ]);
  });

  it('an admitted customer’s legal data changes only through 企业信息变更; other fields stay editable', async () => {
    const { compCode, bizCode } = await submittedFor(admin, '准入测试乙有限公司');
    // Pending: the maker may still correct it… but then the approval refuses the moved-on data.
    const v0 = await company(compCode);
    await admin.ok(companyApi.update, {
      ...companyBody({ compName: '准入测试乙有限公司', usccCode: v0.usccCode, legalPerson: '赵六' }),
      compCode,
      version: v0.version,
    });
    const stale = await checker.call(admissionApi.audit, {}, bq(bizCode));
    expect(stale.status).toBe(409);
    expect(stale.msg).toContain('已被修改');
    await checker.ok(admissionApi.unAudit, { comment: '请按新信息重新提交' }, bq(bizCode));
    const doc = await admin.ok<AdmissionView>(admissionApi.view, undefined, bq(bizCode));
    await admin.ok(admissionApi.save, {
      ...(await admissionBody(admin, compCode, doc.bankBizCode)),
      bizCode,
      version: doc.version,
      submit: true,
    });
    await checker.ok(admissionApi.audit, {}, bq(bizCode));

    const v1 = await company(compCode);
    const base = {
      ...companyBody({ compName: v1.compName, usccCode: v1.usccCode, legalPerson: v1.legalPerson }),
      compCode,
    };
    const legal = await admin.call(companyApi.update, { ...base, legalPerson: '钱七', version: v1.version });
    expect([legal.status, legal.msg]).toEqual([
      409,
      '企业客户「准入测试乙有限公司」已准入，法定代表人的修改请通过企业信息变更办理',
    ]);
    await admin.ok(companyApi.update, { ...base, contactName: '新联系人', version: v1.version });
    expect((await company(compCode)).contactName).toBe('新联系人');
  });

  it('four eyes: the maker cannot approve their own 准入单', async () => {
    const { compCode, bizCode } = await submittedFor(admin, '准入测试丙有限公司');
    const own = await admin.call(admissionApi.audit, {}, bq(bizCode));
    expect([own.status, own.msg]).toEqual([409, SELF_APPROVAL_MSG]);
    expect((await company(compCode)).admission).toBe('pending');
    await checker.ok(admissionApi.audit, {}, bq(bizCode));
    expect((await company(compCode)).admission).toBe('admitted');
  });

  it('a customer with an open 准入单 cannot be deleted', async () => {
    const { compCode } = await submittedFor(admin, '准入测试丁有限公司');
    const r = await admin.call(companyApi.del, undefined, cq(compCode));
    expect(r.status).toBe(409);
    expect(r.msg).toContain('客户准入单');
  });

  it('a contract is refused for a customer not admitted (the seller, named in Chinese)', async () => {
    const f = await contractFixture(t, admin, checker);
    // Its admission undone behind the screens: the contract's save and approval both check it.
    await t.database.db.execute(
      sql`update companies set admission = 'pending' where comp_code = ${f.custCode}`,
    );
    const r = await admin.call(contractApi.infoSave, contractBody(f));
    expect(r.status).toBe(409);
    expect(r.msg).toMatch(/^客户「测试供应商\d+有限公司」尚未通过客户准入，不能办理授信或合同$/);
    // Debtors are not customers that need admission: a credit names them freely.
    const seller = await addCustomer(t.database.db, '准入卖方有限公司');
    await admin.ok(creditApi.saveCreditPlatform, platform(seller));
  });

  it('row scope: the 准入单, its approval and its KYC files follow the maker’s scope', async () => {
    const { bizCode } = await submittedFor(admin, '准入测试戊有限公司');
    const doc = await admin.ok<AdmissionView>(admissionApi.view, undefined, bq(bizCode));
    await createUserWithCodes(
      t.database.db,
      'admit-own',
      PW,
      [ADMISSION_MENU, ...(['audit', 'unAudit'] as const).map((a) => buttonCode(ADMISSION_MENU, a))],
      { dataScope: 'self' },
    );
    const own = await t.login('admit-own', PW);
    const list = await own.ok<Page<AdmissionRow>>(admissionApi.list, { pageNum: 1, pageSize: 100 });
    expect(list.list.map((r) => r.bizCode)).not.toContain(bizCode);
    const hidden = await own.call(admissionApi.view, undefined, bq(bizCode));
    expect([hidden.status, hidden.msg]).toEqual([404, '客户准入单不存在']);
    const audit = await own.call(admissionApi.audit, {}, bq(bizCode));
    expect([audit.status, audit.msg]).toEqual([404, '客户准入单不存在']);
    const files = await own.call(`/api${FILE_PATHS.list}`, { docType: 'custAdmission', docCode: bizCode });
    expect(files.status).toBe(404);
    const token = await own.call(`/api${FILE_PATHS.downloadToken}`, {
      fileToken: doc.files.licenseFile!.fileToken,
    });
    expect([token.status, token.msg]).toEqual([404, '附件不存在']);
    // Whoever sees the document sees its files.
    const seen = await risk.ok<{ fileToken: string }[]>(`/api${FILE_PATHS.list}`, {
      docType: 'custAdmission',
      docCode: bizCode,
    });
    expect(seen).toHaveLength(4);
  });

  it.runIf(onPostgres)(
    'approval racing a withdrawal: exactly one wins, and the customer follows it',
    async () => {
      for (let i = 0; i < 4; i++) {
        const { compCode, bizCode } = await submittedFor(admin, `准入并发${i}有限公司`);
        const [approved, withdrawn] = await Promise.all([
          checker.call(admissionApi.audit, {}, bq(bizCode)),
          admin.call(`/api${WORKFLOW_PATHS.withdraw}`, undefined, ref(bizCode)),
        ]);
        expect([approved!.status, withdrawn!.status].sort()).toEqual([200, 409]);
        const [row] = await queryRows<{ state: string; admission: string }>(
          t.database.db,
          sql`select a.state, c.admission from cust_admissions a join companies c on c.comp_code = a.comp_code
             where a.biz_code = ${bizCode}`,
        );
        if (approved!.status === 200) {
          expect(row).toEqual({ state: 'approved', admission: 'admitted' });
          expect(withdrawn!.msg).toBe(WITHDRAW_TOO_LATE_MSG);
        } else {
          expect(row).toEqual({ state: 'draft', admission: 'pending' });
        }
        expect((await company(compCode)).admission).toBe(row!.admission);
      }
    },
  );
});
