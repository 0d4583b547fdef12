import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  idCardProblem,
  type CollateralRow,
  type CreditView,
  type GuaranteeRow,
} from '@portal/contract/credit';
import { BIZDATE_PATHS } from '@portal/contract/bizdate';
import { FILE_PATHS, type FileInfo } from '@portal/contract/files';
import { buttonCode } from '@portal/contract/menus';
import { SYSPARAM_PATHS, type SysParamsView } from '@portal/contract/sysparams';
import { queryRows } from '../../platform/db/client';
import {
  createTestPortal,
  createUserWithCodes,
  onPostgres,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { addChecker, addCustomer, creditApi, platform, type Saved } from './testkit';

/**
 * 担保授信 (docs/credit.md "Guarantees and collateral"): guarantors and collateral, the approval
 * rule of a credit requiring a guarantee, the release of a guarantee, its files' scope and the
 * day-end's reminders. The business date is 2026-01-15 (the harness's).
 */

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let cust: string;
let guarantorCo: string;
const db = () => t.database.db;
const q = (bizCode: string) => ({ query: { bizCode } });
const PW = 'Outsider@123456';
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  cust = await addCustomer(db(), '上海担保测试供应链有限公司');
  guarantorCo = await addCustomer(db(), '上海担保人实业有限公司');
});
afterAll(() => t.close());

async function upload(client: TestClient, name: string): Promise<FileInfo> {
  const boundary = '----portalGuaranteeBoundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    PDF,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.portal.app.inject({
    method: 'POST',
    url: `/api${FILE_PATHS.upload}`,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${client.token}`,
    },
    payload,
  });
  return (res.json() as { data: FileInfo }).data;
}

const enterprise = (over: Record<string, unknown> = {}) => ({
  guarantorKind: 'enterprise',
  guarantorCode: guarantorCo,
  guarantorName: '任意名称',
  guaranteeType: 'joint',
  amount: '300000.10',
  startDate: '2026-01-01',
  endDate: '2026-12-31',
  ...over,
});
const person = (over: Record<string, unknown> = {}) => ({
  guarantorKind: 'person',
  guarantorName: '李四',
  idNo: '11010119800101007x',
  guaranteeType: 'general',
  amount: '100000',
  startDate: '2026-01-01',
  endDate: '2026-02-10',
  ...over,
});
const collateral = (over: Record<string, unknown> = {}) => ({
  kind: 'realEstate',
  name: '厂房',
  value: '1234567.89',
  valuationDate: '2025-06-30',
  regNo: '沪(2025)浦东新区不动产权第0001号',
  ...over,
});

/** A draft credit requiring a guarantee; answers its code and version. */
async function guaranteedDraft(over: Record<string, unknown> = {}): Promise<Saved> {
  return maker.ok<Saved>(
    creditApi.saveCreditPlatform,
    platform(cust, { guaranteeMode: 'guaranteed', ...over } as never),
  );
}

async function submit(s: Saved): Promise<Saved> {
  const view = await maker.ok<CreditView>(creditApi.creditPlatform, undefined, q(s.bizCode));
  return maker.ok<Saved>(creditApi.saveCreditPlatform, {
    ...platform(cust, { guaranteeMode: 'guaranteed' } as never),
    bizCode: s.bizCode,
    version: view.version,
    submit: true,
  });
}

describe('the 身份证号 check', () => {
  it('accepts a number with its check character and refuses a wrong one, a bad date or length', () => {
    expect(idCardProblem('11010119800101007X')).toBe(null);
    expect(idCardProblem('110101198001010010')).toBe(null);
    expect(idCardProblem('110101198001010011')).toBe('身份证号校验位不正确');
    expect(idCardProblem('110101198002300017')).toBe('身份证号中的出生日期不正确');
    expect(idCardProblem('1101011980010100')).toBe('身份证号必须是18位，末位为数字或X');
  });
});

describe('saving guarantees and collateral', () => {
  it('keeps guarantors of both kinds, their period, contract file, and the collateral, exactly', async () => {
    const s = await guaranteedDraft();
    const file = await upload(maker, '保证合同.pdf');
    const saved = await maker.ok<Saved>(creditApi.saveCreditGua, {
      credBizCode: s.bizCode,
      version: s.version,
      items: [enterprise({ contractFileToken: file.fileToken }), person()],
      collaterals: [collateral()],
    });
    expect(saved.version).toBe(s.version + 1);
    const rows = await maker.ok<GuaranteeRow[]>(creditApi.creditGua, undefined, q(s.bizCode));
    expect(rows).toMatchObject([
      {
        guarantorKind: 'enterprise',
        guarantorCode: guarantorCo,
        // An enterprise picked from the customers takes its registered name.
        guarantorName: '上海担保人实业有限公司',
        amount: '300000.10',
        status: 'inForce',
        daysLeft: 350,
        contractFile: { fileToken: file.fileToken, originFileName: '保证合同.pdf', docType: 'creditGua' },
      },
      // 26 days before its end with 30 reminder days: 即将到期; the ID number upper-cased.
      { guarantorKind: 'person', idNo: '11010119800101007X', status: 'expiring', daysLeft: 26 },
    ]);
    const coll = await maker.ok<CollateralRow[]>(creditApi.creditCollateral, undefined, q(s.bizCode));
    expect(coll).toMatchObject([
      {
        kind: 'realEstate',
        value: '1234567.89',
        valuationDate: '2025-06-30',
        valuationAgeDays: 199,
        stale: false,
      },
    ]);
    // The credit's own attachments are another list: saving them keeps the contract of guarantee.
    await maker.ok(creditApi.saveCredFile, {
      credBizCode: s.bizCode,
      version: saved.version,
      fileTokens: [],
    });
    const again = await maker.ok<GuaranteeRow[]>(creditApi.creditGua, undefined, q(s.bizCode));
    expect(again[0]!.contractFile?.fileToken).toBe(file.fileToken);
  });

  it('refuses bad rows with a message naming the field, and changes nothing', async () => {
    const s = await guaranteedDraft();
    const cases: [Record<string, unknown>, string][] = [
      [{ items: [person({ idNo: '110101198001010011' })] }, '担保人身份证号校验位不正确'],
      [{ items: [person({ idNo: undefined })] }, '自然人担保人的身份证号不能为空'],
      [{ items: [enterprise({ endDate: '2025-12-31' })] }, '担保到期日不能早于担保起始日'],
      [{ items: [enterprise({ startDate: undefined })] }, '担保起始日不能为空'],
      [{ items: [enterprise(), enterprise()] }, '担保信息第2行：担保人「上海担保人实业有限公司」重复'],
      [{ items: [], collaterals: [collateral({ value: '12.345' })] }, '评估价值'],
      [{ items: [], collaterals: [collateral({ regNo: '' })] }, '登记编号不能为空'],
    ];
    for (const [body, msg] of cases) {
      const r = await maker.call(creditApi.saveCreditGua, {
        credBizCode: s.bizCode,
        version: s.version,
        ...body,
      });
      expect([r.status, r.msg]).toEqual([400, expect.stringContaining(msg)]);
    }
    expect(await maker.ok<GuaranteeRow[]>(creditApi.creditGua, undefined, q(s.bizCode))).toEqual([]);
  });
});

describe('approving a credit that requires a guarantee', () => {
  it('is refused without a guarantee in force on the business date (409 naming what is missing)', async () => {
    const s = await guaranteedDraft();
    const none = await submit(s);
    const r = await checker.call(creditApi.passCredit, { comment: '同意' }, q(s.bizCode));
    expect([r.status, r.msg]).toEqual([
      409,
      '授信要求担保，营业日 2026-01-15 没有有效的担保：未登记任何担保',
    ]);
    // Nothing moved: still pending, no line.
    const v = await maker.ok<CreditView>(creditApi.creditPlatform, undefined, q(s.bizCode));
    expect([v.state, v.line, v.version]).toEqual(['pending', null, none.version]);

    // Back to the maker; a guarantee that starts later and one already ended are not in force.
    await checker.ok(creditApi.rejectCredit, { comment: '补充担保' }, q(s.bizCode));
    const cur = await maker.ok<CreditView>(creditApi.creditPlatform, undefined, q(s.bizCode));
    await maker.ok(creditApi.saveCreditGua, {
      credBizCode: s.bizCode,
      version: cur.version,
      items: [
        enterprise({ startDate: '2026-02-01' }),
        person({ startDate: '2025-01-01', endDate: '2026-01-14' }),
      ],
    });
    await submit(s);
    const r2 = await checker.call(creditApi.passCredit, { comment: '同意' }, q(s.bizCode));
    expect([r2.status, r2.msg]).toEqual([
      409,
      '授信要求担保，营业日 2026-01-15 没有有效的担保：企业担保人「上海担保人实业有限公司」2026-02-01 起才生效；自然人担保人「李四」已于 2026-01-14 到期',
    ]);
  });

  it('passes with one in force; the maker may not approve it (four eyes); a 信用 credit needs none', async () => {
    const s = await guaranteedDraft();
    await maker.ok(creditApi.saveCreditGua, {
      credBizCode: s.bizCode,
      version: s.version,
      items: [person()],
      collaterals: [collateral()],
    });
    await submit(s);
    const self = await maker.call(creditApi.passCredit, { comment: '自己审' }, q(s.bizCode));
    expect([self.status, self.msg]).toEqual([409, '经办人和复核人相同，不可复核']);
    await checker.ok(creditApi.passCredit, { comment: '同意' }, q(s.bizCode));
    const v = await maker.ok<CreditView>(creditApi.creditPlatform, undefined, q(s.bizCode));
    expect([v.state, v.guaranteeMode, v.line?.limitAmount]).toEqual(['approved', 'guaranteed', '1000000.00']);

    const plain = await maker.ok<Saved>(creditApi.saveCreditPlatform, platform(cust));
    await maker.ok(creditApi.saveCreditPlatform, {
      ...platform(cust),
      bizCode: plain.bizCode,
      version: plain.version,
      submit: true,
    });
    await checker.ok(creditApi.passCredit, { comment: '同意' }, q(plain.bizCode));
    const pv = await maker.ok<CreditView>(creditApi.creditPlatform, undefined, q(plain.bizCode));
    expect([pv.state, pv.guaranteeMode]).toEqual(['approved', 'credit']);
  });
});

describe('releasing a guarantee', () => {
  it('keeps the last guarantee in force of an approved guaranteed credit; releases another; needs 审核', async () => {
    const s = await guaranteedDraft();
    await maker.ok(creditApi.saveCreditGua, {
      credBizCode: s.bizCode,
      version: s.version,
      items: [enterprise(), person()],
    });
    await submit(s);
    await checker.ok(creditApi.passCredit, { comment: '同意' }, q(s.bizCode));
    const [a, b] = await maker.ok<GuaranteeRow[]>(creditApi.creditGua, undefined, q(s.bizCode));
    const ok = await checker.ok<Saved>(creditApi.releaseGuarantee, {
      credBizCode: s.bizCode,
      guaranteeId: b!.id,
      reason: '担保人退出',
    });
    expect(ok.bizCode).toBe(s.bizCode);
    const last = await checker.call(creditApi.releaseGuarantee, {
      credBizCode: s.bizCode,
      guaranteeId: a!.id,
      reason: '担保人退出',
    });
    expect([last.status, last.msg]).toEqual([
      409,
      '授信要求担保，企业担保人「上海担保人实业有限公司」是营业日 2026-01-15 唯一有效的担保，不能解除；请先登记新的担保',
    ]);
    const twice = await checker.call(creditApi.releaseGuarantee, {
      credBizCode: s.bizCode,
      guaranteeId: b!.id,
      reason: '再次',
    });
    expect([twice.status, twice.msg]).toEqual([409, '自然人担保人「李四」的担保已于 2026-01-15 解除']);
    const rows = await maker.ok<GuaranteeRow[]>(creditApi.creditGua, undefined, q(s.bizCode));
    expect(rows.map((r) => [r.status, r.releasedOn, r.releaseReason])).toEqual([
      ['inForce', null, null],
      ['released', '2026-01-15', '担保人退出'],
    ]);
    const missing = await checker.call(creditApi.releaseGuarantee, {
      credBizCode: s.bizCode,
      guaranteeId: 999999,
      reason: '无',
    });
    expect(missing.status).toBe(404);
    const noReason = await checker.call(creditApi.releaseGuarantee, {
      credBizCode: s.bizCode,
      guaranteeId: a!.id,
    });
    expect([noReason.status, noReason.msg]).toEqual([400, '解除原因不能为空']);

    // Without 授信·审核 the release is refused.
    await createUserWithCodes(db(), 'guaMaker', PW, ['ft-credit-info', buttonCode('ft-credit-info', 'save')]);
    const plainMaker = await t.login('guaMaker', PW);
    const denied = await plainMaker.call(creditApi.releaseGuarantee, {
      credBizCode: s.bizCode,
      guaranteeId: a!.id,
      reason: '越权',
    });
    expect(denied.status).toBe(401);
  });

  it('is refused on a draft (edit the list instead)', async () => {
    const s = await guaranteedDraft();
    await maker.ok(creditApi.saveCreditGua, {
      credBizCode: s.bizCode,
      version: s.version,
      items: [person()],
    });
    const [g] = await maker.ok<GuaranteeRow[]>(creditApi.creditGua, undefined, q(s.bizCode));
    const r = await checker.call(creditApi.releaseGuarantee, {
      credBizCode: s.bizCode,
      guaranteeId: g!.id,
      reason: '无',
    });
    expect([r.status, r.msg]).toEqual([
      409,
      '只能解除审批中或已审核授信的担保；草稿或被驳回的授信请直接修改担保信息',
    ]);
  });
});

describe('the approval racing the release of the only guarantee', () => {
  it('never ends approved without a guarantee in force: exactly one of the two wins', async () => {
    const rounds = onPostgres ? 8 : 3;
    for (let i = 0; i < rounds; i++) {
      const s = await guaranteedDraft();
      await maker.ok(creditApi.saveCreditGua, {
        credBizCode: s.bizCode,
        version: s.version,
        items: [enterprise()],
      });
      await submit(s);
      const [g] = await maker.ok<GuaranteeRow[]>(creditApi.creditGua, undefined, q(s.bizCode));
      const [pass, release] = await Promise.all([
        checker.call(creditApi.passCredit, { comment: '同意' }, q(s.bizCode)),
        checker.call(creditApi.releaseGuarantee, {
          credBizCode: s.bizCode,
          guaranteeId: g!.id,
          reason: '撤回',
        }),
      ]);
      const v = await maker.ok<CreditView>(creditApi.creditPlatform, undefined, q(s.bizCode));
      const [after] = await maker.ok<GuaranteeRow[]>(creditApi.creditGua, undefined, q(s.bizCode));
      expect([pass.status, release.status].sort()).toEqual([200, 409]);
      if (pass.status === 200) {
        expect([v.state, after!.status]).toEqual(['approved', 'inForce']);
        expect(release.msg).toContain('唯一有效的担保，不能解除');
      } else {
        expect([v.state, v.line, after!.status]).toEqual(['pending', null, 'released']);
        expect(pass.msg).toContain('没有有效的担保');
      }
    }
  });
});

describe('the guarantee contract follows its credit’s row scope', () => {
  it('hides the file list and the file from a user who cannot see the credit', async () => {
    const s = await guaranteedDraft();
    const file = await upload(maker, '抵押合同.pdf');
    await maker.ok(creditApi.saveCreditGua, {
      credBizCode: s.bizCode,
      version: s.version,
      items: [enterprise({ contractFileToken: file.fileToken })],
    });
    const mine = await maker.ok<FileInfo[]>(`/api${FILE_PATHS.list}`, {
      docType: 'creditGua',
      docCode: s.bizCode,
    });
    expect(mine.map((f) => f.fileToken)).toEqual([file.fileToken]);
    await createUserWithCodes(db(), 'guaOutsider', PW, ['ft-credit-info'], { dataScope: 'self' });
    const outsider = await t.login('guaOutsider', PW);
    const list = await outsider.call(`/api${FILE_PATHS.list}`, { docType: 'creditGua', docCode: s.bizCode });
    expect(list.httpStatus).toBe(404);
    const token = await outsider.call(`/api${FILE_PATHS.downloadToken}`, { fileToken: file.fileToken });
    expect(token.httpStatus).toBe(404);
    const gua = await outsider.call(creditApi.creditGua, undefined, q(s.bizCode));
    expect(gua.httpStatus).toBe(404);
    // The file cannot be attached to another credit either.
    const other = await guaranteedDraft();
    const stolen = await maker.call(creditApi.saveCreditGua, {
      credBizCode: other.bizCode,
      version: other.version,
      items: [enterprise({ contractFileToken: file.fileToken })],
    });
    expect([stolen.status, stolen.msg]).toEqual([400, '附件「抵押合同.pdf」已属于其他单据']);
  });
});

describe('reminders at the day-end', () => {
  it('tells the credit’s maker once of a guarantee ending and of a stale valuation, by 参数设置', async () => {
    const [me] = await queryRows<{ id: number }>(
      db(),
      sql`select id::int as id from users where user_name = 'admin'`,
    );
    const s = await guaranteedDraft({ endDate: '2027-06-30' });
    await maker.ok(creditApi.saveCreditGua, {
      credBizCode: s.bizCode,
      version: s.version,
      items: [enterprise({ endDate: '2026-03-31', guarantorName: 'x' })],
      collaterals: [collateral({ valuationDate: '2025-03-01', regNo: 'REG-OLD-1' })],
    });
    await submit(s);
    await checker.ok(creditApi.passCredit, { comment: '同意' }, q(s.bizCode));
    const params = await maker.ok<SysParamsView>(`/api${SYSPARAM_PATHS.get}`);
    await maker.ok(`/api${SYSPARAM_PATHS.save}`, {
      ...params.params,
      guaranteeRemindDays: 10,
      collateralValuationMaxDays: 400,
    });
    const mine = () =>
      queryRows<{ detail: string; doc_code: string }>(
        db(),
        sql`select detail, doc_code from messages where user_id = ${me!.id} and kind = 'guaranteeExpiry'
             and doc_code = ${s.bizCode} order by id`,
      );
    const dayEnd = async (date: string) => {
      t.portal.clock.set(date);
      await maker.ok(`/api${BIZDATE_PATHS.runDayEnd}`);
    };
    await dayEnd('2026-03-20');
    expect(await mine()).toEqual([]);
    await dayEnd('2026-03-21');
    await dayEnd('2026-03-21');
    await dayEnd('2026-03-22');
    expect(await mine()).toEqual([
      {
        doc_code: s.bizCode,
        detail: '企业担保人「上海担保人实业有限公司」的担保将于 2026-03-31 到期，还有10天',
      },
    ]);
    // 2025-03-01 + 400 days = 2026-04-05: older from 2026-04-06 on.
    await dayEnd('2026-04-05');
    expect(await mine()).toHaveLength(1);
    await dayEnd('2026-04-06');
    await dayEnd('2026-04-07');
    expect((await mine()).map((m) => m.detail)).toEqual([
      '企业担保人「上海担保人实业有限公司」的担保将于 2026-03-31 到期，还有10天',
      '抵质押物（登记编号 REG-OLD-1）的评估日期 2025-03-01 已超过400天，请重新评估',
    ]);
    const coll = await maker.ok<CollateralRow[]>(creditApi.creditCollateral, undefined, q(s.bizCode));
    expect(coll[0]!.stale).toBe(true);
    const gua = await maker.ok<GuaranteeRow[]>(creditApi.creditGua, undefined, q(s.bizCode));
    expect(gua[0]!.status).toBe('expired');
    t.portal.clock.set('2026-01-15');
  });
});
