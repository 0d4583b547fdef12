import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BeforeAfter,
  BusinessInfoView,
  ChangeListRow,
  CompanyMember,
  ContractInfo,
  ContractPick,
  HandoverListRow,
  ImportPreview,
  PayerItem,
} from '@portal/contract/contract';
import { HANDOVER_PATHS } from '@portal/contract/contract';
import type { DictItem, LineFigures } from '@portal/contract/credit';
import type { Page } from '@portal/contract/api';
import type { FileInfo } from '@portal/contract/files';
import { queryRows } from '../../platform/db/client';
import {
  createTestPortal,
  createUserWithCodes,
  onPostgres,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { uploadXlsx } from '../../testing/xlsx-upload';
import { addChecker } from '../credit/testkit';
import {
  approvedContract,
  contractBody,
  contractFixture,
  draftContract,
  contractApi,
  receivable,
  submitContract,
  type ContractFixture,
  type Saved,
} from './testkit';

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let f: ContractFixture;
const db = () => t.database.db;
const q = (bizCode: string) => ({ query: { bizCode } });
const cq = (contBizCode: string) => ({ query: { contBizCode } });

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  f = await contractFixture(t, maker, checker, { limit: '2000000.00' });
});
afterAll(() => t.close());

const upload = (path: string, rows: (string | number | Date)[][], fields: Record<string, string> = {}) =>
  uploadXlsx(maker, path, rows, fields);

describe('dictionaries and pickers', () => {
  it('every dict call answers the contract dictionaries', async () => {
    for (const k of [
      'dict',
      'listDict',
      'chgDict',
      'infoDict',
      'scheDict',
      'dueDict',
      'businessDict',
    ] as const) {
      const d = await maker.ok<DictItem[]>(contractApi[k]);
      expect(d.find((x) => x.type === 'disclosure' && x.code === 'undisclosed')?.label).toBe('暗保理');
    }
    const types = await maker.ok<DictItem[]>(contractApi.planType);
    expect(types.map((x) => x.label)).toContain('等额本息');
  });

  it('bank, company info, staff', async () => {
    const banks = await maker.ok<{ bizCode: string; ownerType: string }[]>(contractApi.bank);
    expect(banks.map((b) => b.bizCode)).toContain(f.bankBizCode);
    expect(banks.every((b) => b.ownerType === 'self')).toBe(true);
    const comp = await maker.ok<{ compCode: string }>(contractApi.compInfo, undefined, {
      query: { custCode: f.custCode },
    });
    expect(comp.compCode).toBe(f.custCode);
    const staff = await maker.ok<CompanyMember[]>(contractApi.companyMember);
    expect(staff.some((s) => s.name)).toBe(true);
  });
});

describe('usage checks', () => {
  it('a rule, a customer and an account in use by a contract cannot be deleted', async () => {
    await draftContract(maker, contractBody(f));
    const rule = await maker.call('/api/ft/api/businessCfg/ruler/del', undefined, q(f.ruleBizCode));
    expect(rule.status).toBe(409);
    expect(rule.msg).toMatch(/合同 \d{12}/);
    const bank = await maker.call('/api/ft/api/bank/del', undefined, q(f.bankBizCode));
    expect(bank.status).toBe(409);
    expect(bank.msg).toMatch(/合同 \d{12}/);
  });
});

describe('business info, files, payers', () => {
  it('saves business info with files, keeps the file history, lists files and payers', async () => {
    const body = contractBody(f);
    const s = await draftContract(maker, body);
    const upload1 = await uploadFile('贸易合同.pdf');
    const upload2 = await uploadFile('发货单.pdf');
    const b = await maker.ok<{ version: number; contractdetailCode: string }>(contractApi.businessSave, {
      contBizCode: s.bizCode,
      version: s.version,
      tradeContractNo: 'TC-001',
      goodsName: '钢材',
      tradeAmount: '200000.00',
      fileTokens: [upload1, upload2],
    });
    const b2 = await maker.ok<{ version: number }>(contractApi.businessSave, {
      contBizCode: s.bizCode,
      version: b.version,
      tradeContractNo: 'TC-001',
      goodsName: '钢材',
      tradeAmount: '200000.00',
      fileTokens: [upload2],
    });
    const view = await maker.ok<BusinessInfoView>(contractApi.businessView, undefined, cq(s.bizCode));
    expect(view).toMatchObject({ tradeContractNo: 'TC-001', fileTokens: [upload2] });
    const history = await maker.ok<(FileInfo & { removed: boolean })[]>(contractApi.fileHistory, undefined, {
      query: { contractdetailCode: b.contractdetailCode },
    });
    expect(history.map((h) => h.removed).sort()).toEqual([false, true]);
    const upload3 = await uploadFile('保理合同扫描件.pdf');
    await maker.ok(contractApi.fileSave, {
      contBizCode: s.bizCode,
      version: b2.version,
      fileTokens: [upload3],
    });
    const files = await maker.ok<FileInfo[]>(contractApi.fileView, undefined, cq(s.bizCode));
    expect(files.map((x) => x.originFileName)).toEqual(['保理合同扫描件.pdf']);
    const payers = await maker.ok<PayerItem[]>(contractApi.payerInfo, undefined, cq(s.bizCode));
    expect(payers[0]!.payerName).toBe('核心买方有限公司');
  });
});

async function uploadFile(name: string): Promise<string> {
  const boundary = '----f' + Date.now();
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  const res = await maker.portal.app.inject({
    method: 'POST',
    url: '/api/admin/portal/third/file/store',
    headers: {
      authorization: `Bearer ${maker.token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      pdf,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  const body = res.json() as { status: number; msg: string; data: { fileToken: string } };
  if (body.status !== 200) throw new Error(body.msg);
  return body.data.fileToken;
}

describe('imports preview with row errors and save nothing', () => {
  it('receivables: good rows pass, bad rows carry their errors, invoices of live contracts are flagged', async () => {
    const live = receivable('150000.00');
    const { bizCode } = await approvedContract(t, maker, checker, {
      fixture: f,
      over: { receivables: [live] },
    });
    const before = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from contract_receivables`,
    );
    const res = await upload(contractApi.importReceivables, [
      ['发票代码', '发票号码', '开票日期', '发票金额', '债务人名称', '到期日'],
      ['3100261130', '88000001', '2026-01-05', '1000.00', '买方甲', '2026-06-30'],
      ['31002611', '88000002', '2026-01-05', '-5', '买方甲', '2026-06-30'],
      [live.invoiceCode, live.invoiceNo, '2026-01-05', '1000.00', '买方甲', '2026-06-30'],
    ]);
    expect(res.status).toBe(200);
    const preview = res.data as ImportPreview<unknown>;
    expect(preview.ok).toBe(false);
    expect(preview.rows[0]!.errors).toEqual([]);
    expect(preview.rows[1]!.errors).toContain('发票代码必须是10位或12位数字');
    expect(preview.rows[2]!.errors).toContain(`该发票已转让给合同 ${bizCode}`);
    const after = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from contract_receivables`,
    );
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('plan excel: ascending dates, positive amounts, total equal to the financing', async () => {
    const ok = await upload(
      contractApi.resolvePlanExcel,
      [
        ['还款日', '本金'],
        ['2026-03-15', '40000.00'],
        ['2026-07-15', '60000.00'],
      ],
      { financingAmount: '100000.00', startDate: '2026-01-15' },
    );
    expect((ok.data as ImportPreview<unknown>).ok).toBe(true);
    const bad = await upload(
      contractApi.resolvePlanExcel,
      [
        ['还款日', '本金'],
        ['2026-05-15', '40000.00'],
        ['2026-03-15', 'abc'],
        ['2026-02-30', '100.00'],
      ],
      { financingAmount: '100000.00', startDate: '2026-01-15' },
    );
    const rows = (bad.data as ImportPreview<unknown>).rows;
    expect(rows[1]!.errors).toEqual(
      expect.arrayContaining(['还款日必须晚于上一期还款日', '本金必须是最多两位小数的金额']),
    );
    expect(rows[2]!.errors.join()).toMatch(/还款日必须是有效日期/);
    expect(rows[2]!.errors.join()).toMatch(/本金合计 40,100\.00元 与融资金额 100,000\.00元 不一致/);
    expect((await upload(contractApi.resolvePlanExcel, [['日期', '金额']])).msg).toBe('表头缺少列：还款日');
  });

  it('a custom plan saved from imported rows', async () => {
    const custom = await contractFixture(t, maker, checker, {
      rule: {
        annualRate: '0.06',
        dayCount: 'ACT/365',
        method: 'CUSTOM',
        interestCollection: 'BACK',
        feeRate: '0',
        feeCollection: 'BACK',
        penalty: { mode: 'DAILY', value: '0.0005' },
        graceDays: 0,
      },
    });
    const s = await maker.ok<Saved>(contractApi.infoSave, contractBody(custom));
    const missing = await maker.call(contractApi.schemeSave, { contBizCode: s.bizCode, version: s.version });
    expect(missing.msg).toBe('自定义还款方式请填写还款计划');
    const r = await maker.ok<{ plan: { items: unknown[] } }>(contractApi.schemeSave, {
      contBizCode: s.bizCode,
      version: s.version,
      customItems: [
        { dueDate: '2026-03-15', principal: '40000.00' },
        { dueDate: '2026-07-15', principal: '60000.00' },
      ],
    });
    expect(r.plan.items).toHaveLength(2);
  });
});

describe('changes: list, delete, reject, views of every section', () => {
  it('a change is listed, rejected, edited, deleted; chg views answer before/after', async () => {
    const { bizCode } = await approvedContract(t, maker, checker, { fixture: f });
    const c = await maker.ok<Saved>(contractApi.changeSave, {
      contBizCode: bizCode,
      reason: '更换付款方',
      payers: [{ payerName: '新付款方有限公司' }],
      dues: [{ kind: 'serviceFee', amount: '500.00', dueDate: '2026-02-01' }],
      submit: true,
    });
    const list = await maker.ok<Page<ChangeListRow>>(contractApi.changeList, { contBizCode: bizCode });
    expect(list.list.map((x) => x.bizCode)).toEqual([c.bizCode]);
    const payers = await maker.ok<BeforeAfter<PayerItem[]>>(
      contractApi.chgPayerInfo,
      undefined,
      q(c.bizCode),
    );
    expect(payers.before[0]!.payerName).toBe('核心买方有限公司');
    expect(payers.after[0]!.payerName).toBe('新付款方有限公司');
    expect(payers.changed).toEqual(['*']);
    const dues = await maker.ok<BeforeAfter<unknown[]>>(contractApi.chgDueView, undefined, q(c.bizCode));
    expect(dues.after).toHaveLength(1);
    for (const k of ['chgBusinessView', 'chgFileView', 'chgSchemeView', 'chgInfoView'] as const) {
      expect((await maker.call(contractApi[k], undefined, q(c.bizCode))).status).toBe(200);
    }
    // Pending: no delete. Rejected: editable and deletable.
    expect((await maker.call(contractApi.changeDelete, undefined, q(c.bizCode))).status).toBe(409);
    await checker.ok(contractApi.changeUnAudit, { comment: '资料不全' }, q(c.bizCode));
    const lines = await maker.ok<LineFigures[]>(contractApi.chgCredInit, undefined, q(bizCode));
    expect(lines.find((l) => l.lineCode === f.lineCode)).toBeTruthy();
    await maker.ok(contractApi.changeDelete, undefined, q(c.bizCode));
    expect((await maker.call(contractApi.changeView, undefined, q(c.bizCode))).status).toBe(404);
    // With the change gone, a new one may be raised.
    expect((await maker.call(contractApi.isChange, undefined, q(bizCode))).status).toBe(200);
  });

  it('a change of a contract not approved is refused', async () => {
    const s = await draftContract(maker, contractBody(f));
    const r = await maker.call(contractApi.changeSave, { contBizCode: s.bizCode, reason: 'x' });
    expect(r.status).toBe(409);
    expect((await maker.call(contractApi.isChange, undefined, q(s.bizCode))).msg).toBe(
      '合同未审核，不能变更'.replace('未审核', '未审核通过'),
    );
  });

  it('rejecting a pending contract leaves it editable and resubmittable; nothing occupied meanwhile', async () => {
    const body = contractBody(f, { financingAmount: '20000.00' });
    const s = await draftContract(maker, body);
    const sub = await submitContract(maker, body, s);
    await checker.ok(contractApi.infoUnAudit, { comment: '补充资料' }, q(s.bizCode));
    const v = await maker.ok<ContractInfo>(contractApi.infoView, undefined, q(s.bizCode));
    expect(v).toMatchObject({ state: 'rejected', occupiedAmount: '0.00' });
    const again = await submitContract(maker, body, { ...sub, version: v.version });
    expect(again.state).toBe('pending');
  });
});

describe('handover list, delete, reject', () => {
  it('lists by contract, rejects, deletes', async () => {
    const { bizCode } = await approvedContract(t, maker, checker, { fixture: f });
    const s = await maker.ok<Saved>('/api/ft/api/contract/handover/save', {
      contBizCode: bizCode,
      handoverName: '张三',
      receiverName: '李四',
      handoverDate: '2026-01-14',
      items: [{ docName: '保理合同', kind: 'original', copies: 2 }],
      submit: true,
    });
    const list = await maker.ok<Page<HandoverListRow>>('/api/ft/api/contract/handover/list', {
      contBizCode: bizCode,
    });
    expect(list.list).toHaveLength(1);
    await checker.ok('/api/ft/api/contract/handover/unAudit', { comment: '份数不对' }, q(s.bizCode));
    await maker.ok('/api/ft/api/contract/handover/del', undefined, q(s.bizCode));
    expect((await maker.call('/api/ft/api/contract/handover/view', undefined, q(s.bizCode))).status).toBe(
      404,
    );
    const future = await maker.call('/api/ft/api/contract/handover/save', {
      contBizCode: bizCode,
      handoverName: '张三',
      receiverName: '李四',
      handoverDate: '2026-02-01',
      items: [{ docName: '保理合同', kind: 'original', copies: 2 }],
    });
    expect(future.msg).toBe('交接日期不能晚于营业日 2026-01-15');
  });
});

describe('contract picker of a new handover sheet (server-side search)', () => {
  it('finds contracts by part of the 合同号 or of the customer name, within the user’s scope', async () => {
    const a = await draftContract(maker, contractBody(f, { contractNo: 'PICK-甲-0001' }));
    const b = await draftContract(maker, contractBody(f, { contractNo: 'PICK-乙-0002' }));
    const pick = (keyword?: string) =>
      maker.ok<ContractPick[]>(`/api${HANDOVER_PATHS.contracts}`, keyword === undefined ? {} : { keyword });
    expect((await pick('pick-甲')).map((c) => c.bizCode)).toEqual([a.bizCode]);
    // Newest first; % and _ taken literally.
    expect((await pick('PICK-')).map((c) => c.bizCode).slice(0, 2)).toEqual([b.bizCode, a.bizCode]);
    expect(await pick('PICK_')).toEqual([]);
    const [{ custName } = { custName: '' }] = await pick('PICK-乙');
    const byCustomer = (await pick(custName.slice(2, 8))).map((c) => c.bizCode);
    expect(byCustomer).toEqual(expect.arrayContaining([a.bizCode, b.bizCode]));
    expect((await pick()).length).toBeLessThanOrEqual(20);
    // Someone outside the contract's scope (their own data only) finds none of them.
    await createUserWithCodes(t.database.db, 'hopicker', 'Picker@12345678', ['ft-contract-handover:add'], {
      dataScope: 'self',
    });
    const other = await t.login('hopicker', 'Picker@12345678');
    expect(await other.ok<ContractPick[]>(`/api${HANDOVER_PATHS.contracts}`, { keyword: 'PICK' })).toEqual(
      [],
    );
  });
});

describe.runIf(onPostgres)('concurrency (PostgreSQL)', () => {
  it('50 contracts approved concurrently against one line never exceed it', async () => {
    const g = await contractFixture(t, maker, checker, { limit: '2000000.00' });
    const drafts: string[] = [];
    for (let i = 0; i < 50; i++) {
      const body = contractBody(g, { financingAmount: '100000.00' });
      const s = await draftContract(maker, body);
      await submitContract(maker, body, s);
      drafts.push(s.bizCode);
    }
    const results = await Promise.all(drafts.map((code) => checker.call(contractApi.infoAudit, {}, q(code))));
    const ok = results.filter((r) => r.status === 200).length;
    console.info(`contract approvals: ${results.length} concurrent against one line, ${ok} approved`);
    expect(ok).toBe(20);
    expect(results.filter((r) => r.status !== 200).every((r) => /授信额度不足/.test(r.msg))).toBe(true);
    const [line] = await queryRows<{ occupied: string }>(
      db(),
      sql`select occupied_amount::text as occupied from credit_lines where biz_code = ${g.lineCode}`,
    );
    expect(line!.occupied).toBe('2000000.00');
    const [approved] = await queryRows<{ n: number; s: string }>(
      db(),
      sql`select count(*)::int as n, coalesce(sum(occupied_amount), 0)::text as s from contracts
           where line_code = ${g.lineCode} and state = 'approved'`,
    );
    expect(approved).toEqual({ n: 20, s: '2000000.00' });
  });
});
