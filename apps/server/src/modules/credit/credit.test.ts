import ExcelJS from 'exceljs';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ChangeView,
  CreditListRow,
  CreditView,
  DictItem,
  DistView,
  FtRow,
  GuaranteeRow,
  HistoryRow,
  ImportPreviewRow,
  InvoiceVerdict,
  LineFigures,
  ReceivableRow,
  UtilisationRow,
} from '@portal/contract/credit';
import type { Page } from '@portal/contract/api';
import type { FileInfo } from '@portal/contract/files';
import { auditLog } from '../../platform/db/audit';
import { createTestPortal, type TestClient, type TestPortal } from '../../testing/harness';
import { occupy } from './ledger';
import { creditLines } from './schema';
import { addChecker, addCustomer, approvedCredit, creditApi, platform, type Saved } from './testkit';

let t: TestPortal;
let maker: TestClient;
let checker: TestClient;
let cust: string;
const db = () => t.database.db;
const q = (bizCode: string, extra: Record<string, string> = {}) => ({ query: { bizCode, ...extra } });

beforeAll(async () => {
  t = await createTestPortal();
  maker = await t.login();
  checker = await addChecker(t);
  cust = await addCustomer(db(), '上海甲供应链有限公司');
});
afterAll(() => t.close());

const receivable = (n: number, over: Record<string, string> = {}) => ({
  invoiceCode: '3100251130',
  invoiceNo: String(10000000 + n),
  invoiceDate: '2026-01-05',
  amount: '10000.00',
  debtorName: '核心企业乙',
  dueDate: '2026-06-30',
  ...over,
});

async function audits(entity: string, code: string) {
  const rows = await db()
    .select()
    .from(auditLog)
    .where(eq(auditLog.entityCode, code))
    .orderBy(asc(auditLog.id));
  return rows.filter((r) => r.entity === entity).map((r) => r.action);
}

describe('dictionaries and pickers', () => {
  it('answers the dictionary, customers by role, staff, and refuses an unknown compdif', async () => {
    const dict = await maker.ok<DictItem[]>(creditApi.dict);
    expect(dict).toContainEqual({ type: 'cycle', code: 'oneOff', label: '一次性' });
    expect(dict).toContainEqual({ type: 'guaranteeType', code: 'joint', label: '连带责任保证' });
    expect(dict.filter((d) => d.type === 'changeType').map((d) => d.code)).toEqual([
      'raise',
      'lower',
      'extend',
      'freeze',
      'unfreeze',
    ]);
    const comps = await maker.ok<{ code: string; label: string }[]>(creditApi.compList, undefined, {
      query: { compdif: 'supplier' },
    });
    expect(comps).toContainEqual({ code: cust, label: '上海甲供应链有限公司' });
    expect((await maker.call(creditApi.compList, undefined, { query: { compdif: 'x' } })).status).toBe(400);
    expect((await maker.call(creditApi.compList)).msg).toBe('企业类型不能为空');
    const users = await maker.ok<{ code: string; label: string }[]>(creditApi.userList, undefined, {
      query: { userdif: 'all' },
    });
    expect(users.map((u) => u.label)).toContain('复核员');
  });
});

describe('credit record', () => {
  it('validates the platform section, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ limitAmount: '-1' }, '授信总额度必须大于0'],
      [{ limitAmount: '1.001' }, '授信总额度必须是最多两位小数的金额'],
      [{ limitAmount: 100 }, '授信总额度格式不正确'],
      [{ endDate: '2025-12-31' }, '到期日不能早于起始日'],
      [{ startDate: '2026-02-30' }, '起始日必须是有效日期（YYYY-MM-DD）'],
      [{ cycle: 'sometimes' }, '额度类型取值不正确'],
      [{ custCode: '000000009999' }, '客户不存在'],
    ];
    for (const [over, msg] of cases) {
      const r = await maker.call(creditApi.saveCreditPlatform, { ...platform(cust), ...over });
      expect([r.status, r.msg], JSON.stringify(over)).toEqual([400, msg]);
    }
    const disabled = await addCustomer(db(), '停用客户', { state: 'disabled' });
    expect((await maker.call(creditApi.saveCreditPlatform, platform(disabled))).msg).toBe(
      '客户「停用客户」已停用',
    );
  });

  it('saves every section with the optimistic lock, lists it, and keeps edits to draft or rejected', async () => {
    const s = await maker.ok<Saved>(
      creditApi.saveCreditPlatform,
      platform(cust, { custName: '随便写的名字' } as never),
    );
    expect(s).toMatchObject({ state: 'draft', version: 0 });
    const view = await maker.ok<CreditView>(creditApi.creditPlatform, undefined, q(s.bizCode));
    expect(view).toMatchObject({
      custName: '上海甲供应链有限公司',
      limitAmount: '1000000.00',
      line: null,
      state: 'draft',
    });

    const g = await maker.ok<Saved>(creditApi.saveCreditGua, {
      credBizCode: s.bizCode,
      version: 0,
      items: [
        {
          guarantorName: '担保人丙',
          guaranteeType: 'joint',
          amount: '500000',
          startDate: '2026-01-01',
          endDate: '2026-12-31',
        },
      ],
    });
    expect(g.version).toBe(1);
    // A stale version answers 409 and changes nothing.
    const stale = await maker.call(creditApi.saveCreditGua, {
      credBizCode: s.bizCode,
      version: 0,
      items: [],
    });
    expect([stale.status, stale.msg]).toEqual([409, '数据已被他人修改，请刷新后重试']);
    expect(await maker.ok<GuaranteeRow[]>(creditApi.creditGua, undefined, q(s.bizCode))).toMatchObject([
      { guarantorName: '担保人丙', guaranteeType: 'joint', amount: '500000.00' },
    ]);

    const badFt = await maker.call(creditApi.saveCreditFt, {
      credBizCode: s.bizCode,
      version: 1,
      items: [
        { debtorName: '核心企业乙', limitAmount: '1000000.01', financingRatio: '0.8', recourse: 'with' },
      ],
    });
    expect([badFt.status, badFt.msg]).toEqual([400, expect.stringContaining('保理子额度不能超过授信总额度')]);
    const badRatio = await maker.call(creditApi.saveCreditFt, {
      credBizCode: s.bizCode,
      version: 1,
      items: [{ debtorName: '核心企业乙', limitAmount: '1', financingRatio: '1.2', recourse: 'with' }],
    });
    expect(badRatio.msg).toBe('融资比例必须是0到1之间最多4位小数');
    const dupFt = await maker.call(creditApi.saveCreditFt, {
      credBizCode: s.bizCode,
      version: 1,
      items: [
        { debtorName: '核心企业乙', limitAmount: '1', financingRatio: '0.8', recourse: 'with' },
        { debtorName: '核心企业乙', limitAmount: '2', financingRatio: '0.8', recourse: 'without' },
      ],
    });
    expect(dupFt.msg).toContain('重复');
    const ft = await maker.ok<Saved>(creditApi.saveCreditFt, {
      credBizCode: s.bizCode,
      version: 1,
      items: [
        { debtorName: '核心企业乙', limitAmount: '600000', financingRatio: '0.85', recourse: 'without' },
      ],
    });
    expect(await maker.ok<FtRow[]>(creditApi.creditFt, undefined, q(s.bizCode))).toMatchObject([
      {
        debtorName: '核心企业乙',
        limitAmount: '600000.00',
        financingRatio: '0.8500',
        recourse: 'without',
        line: null,
      },
    ]);
    // Lowering the total below a sub-limit is refused.
    const low = await maker.call(creditApi.saveCreditPlatform, {
      ...platform(cust, { limitAmount: '500000' }),
      bizCode: s.bizCode,
      version: ft.version,
    });
    expect(low.status).toBe(400);

    const rec = await maker.ok<Saved>(creditApi.saveReceivables, {
      credBizCode: s.bizCode,
      version: ft.version,
      items: [receivable(1), receivable(2)],
    });
    expect(await maker.ok<ReceivableRow[]>(creditApi.receivables, undefined, q(s.bizCode))).toHaveLength(2);

    const list = await maker.ok<Page<CreditListRow>>(creditApi.creditList, {
      custName: '甲供应链',
      state: 'draft',
    });
    expect(list.list.map((r) => r.bizCode)).toContain(s.bizCode);
    expect(
      (await maker.ok<Page<CreditListRow>>(creditApi.creditList, { state: 'approved', custCode: cust }))
        .total,
    ).toBe(0);
    expect((await maker.call(creditApi.creditList, { orderBy: 'password' })).status).toBe(400);

    // credBizCode, when given, must name the same credit.
    expect(
      (await maker.call(creditApi.creditPlatform, undefined, q(s.bizCode, { credBizCode: '000000000999' })))
        .status,
    ).toBe(404);
    expect((await maker.call(creditApi.creditPlatform, undefined, q('000000099999'))).status).toBe(404);

    // Submit: no more edits until approved or rejected.
    const sub = await maker.ok<Saved>(creditApi.saveCreditPlatform, {
      ...platform(cust),
      bizCode: s.bizCode,
      version: rec.version,
      submit: true,
    });
    expect(sub.state).toBe('pending');
    const locked = await maker.call(creditApi.saveCreditGua, {
      credBizCode: s.bizCode,
      version: sub.version,
      items: [],
    });
    expect([locked.status, locked.msg]).toEqual([409, '单据审核中，不能修改']);
    expect((await maker.call(creditApi.deleteCreditPlatform, undefined, q(s.bizCode))).status).toBe(409);

    // Four eyes: the maker may not approve or reject their own document.
    const self = await maker.call(creditApi.passCredit, { comment: '自己审' }, q(s.bizCode));
    expect([self.status, self.msg]).toEqual([409, '经办人和复核人相同，不可复核']);
    await checker.ok(creditApi.rejectCredit, { comment: '资料不全' }, q(s.bizCode));
    const rejected = await maker.ok<CreditView>(creditApi.creditPlatform, undefined, q(s.bizCode));
    expect(rejected.state).toBe('rejected');
    expect((await checker.call(creditApi.rejectCredit, { comment: 'again' }, q(s.bizCode))).status).toBe(409);

    // Edit again, resubmit, approve: lines appear.
    const again = await maker.ok<Saved>(creditApi.saveCreditPlatform, {
      ...platform(cust),
      bizCode: s.bizCode,
      version: rejected.version,
      submit: true,
    });
    await checker.ok(creditApi.passCredit, { comment: '同意' }, q(s.bizCode));
    const approved = await maker.ok<CreditView>(creditApi.creditPlatform, undefined, q(s.bizCode));
    expect(approved).toMatchObject({
      state: 'approved',
      line: { kind: 'platform', limitAmount: '1000000.00', occupiedAmount: '0.00' },
    });
    expect(again.state).toBe('pending');
    const ftLines = await maker.ok<FtRow[]>(creditApi.creditFt, undefined, q(s.bizCode));
    expect(ftLines[0]!.line).toMatchObject({
      kind: 'debtor',
      limitAmount: '600000.00',
      parentLineCode: approved.line!.lineCode,
    });
    expect((await checker.call(creditApi.passCredit, { comment: '再审' }, q(s.bizCode))).status).toBe(409);
    expect((await maker.call(creditApi.deleteCreditPlatform, undefined, q(s.bizCode))).msg).toBe(
      '单据已审核，不能删除',
    );
    expect(
      (
        await maker.call(creditApi.saveReceivables, {
          credBizCode: s.bizCode,
          version: approved.version,
          items: [],
        })
      ).status,
    ).toBe(409);

    const history = await maker.ok<HistoryRow[]>(creditApi.creditHistory, undefined, q(s.bizCode));
    expect(history.map((h) => [h.lineKind, h.movement, h.amount])).toEqual([
      ['platform', 'create', '1000000.00'],
      ['debtor', 'create', '600000.00'],
    ]);
    expect(await audits('credit', s.bizCode)).toEqual(
      expect.arrayContaining([
        'create',
        'saveGuarantees',
        'saveFactoring',
        'saveReceivables',
        'submit',
        'reject',
        'approve',
      ]),
    );
  });

  it('refuses duplicate invoices in a batch and across credits, and frees them when a draft is deleted', async () => {
    const a = await maker.ok<Saved>(creditApi.saveCreditPlatform, platform(cust));
    const dup = await maker.call(creditApi.saveReceivables, {
      credBizCode: a.bizCode,
      version: 0,
      items: [receivable(7), receivable(7)],
    });
    expect([dup.status, dup.msg]).toEqual([400, expect.stringContaining('与第1行发票重复')]);
    const future = await maker.call(creditApi.saveReceivables, {
      credBizCode: a.bizCode,
      version: 0,
      items: [receivable(8, { invoiceDate: '2026-01-16', dueDate: '2026-02-01' })],
    });
    expect(future.msg).toContain('开票日期不能晚于营业日 2026-01-15');
    const shape = await maker.call(creditApi.saveReceivables, {
      credBizCode: a.bizCode,
      version: 0,
      items: [receivable(8, { invoiceNo: '123' })],
    });
    expect(shape.msg).toBe('发票号码必须是8位数字');
    await maker.ok(creditApi.saveReceivables, { credBizCode: a.bizCode, version: 0, items: [receivable(7)] });
    const b = await maker.ok<Saved>(creditApi.saveCreditPlatform, platform(cust));
    const other = await maker.call(creditApi.saveReceivables, {
      credBizCode: b.bizCode,
      version: 0,
      items: [receivable(7)],
    });
    expect([other.status, other.msg]).toEqual([
      400,
      expect.stringContaining(`发票已存在于授信 ${a.bizCode}`),
    ]);
    await maker.ok(creditApi.deleteCreditPlatform, undefined, q(a.bizCode));
    expect((await maker.call(creditApi.creditPlatform, undefined, q(a.bizCode))).status).toBe(404);
    await maker.ok(creditApi.saveReceivables, { credBizCode: b.bizCode, version: 0, items: [receivable(7)] });
    expect(await audits('credit', a.bizCode)).toContain('delete');
  });

  it('verifies invoices locally and records the verdicts on the credit', async () => {
    const s = await maker.ok<Saved>(creditApi.saveCreditPlatform, platform(cust));
    const saved = await maker.ok<Saved>(creditApi.saveReceivables, {
      credBizCode: s.bizCode,
      version: 0,
      items: [receivable(21), receivable(22)],
    });
    const { verdicts } = await maker.ok<{ verdicts: InvoiceVerdict[] }>(creditApi.saveInvoiceVerification, {
      credBizCode: s.bizCode,
      items: [
        { invoiceCode: '3100251130', invoiceNo: '10000021', invoiceDate: '2026-01-05', amount: '10000.00' },
        { invoiceCode: '3100271130', invoiceNo: '10000022', invoiceDate: '2026-01-05', amount: '10000.00' },
        { invoiceCode: '31002511', invoiceNo: '1', invoiceDate: '2026-13-01', amount: '0' },
        { invoiceCode: '3100251130', invoiceNo: '10000021', invoiceDate: '2026-01-05', amount: '10000.00' },
      ],
    });
    expect(verdicts.map((v) => v.ok)).toEqual([true, false, false, false]);
    expect(verdicts[1]!.errors).toEqual(['发票代码中的年份晚于开票日期']);
    expect(verdicts[2]!.errors).toEqual([
      '发票代码必须是10位或12位数字',
      '发票号码必须是8位数字',
      '开票日期必须是有效日期（YYYY-MM-DD）',
      '发票金额必须是大于0且最多两位小数的金额',
    ]);
    expect(verdicts[3]!.errors).toEqual(['与第1行发票重复']);
    const rows = await maker.ok<ReceivableRow[]>(creditApi.receivables, undefined, q(s.bizCode));
    expect(rows.map((r) => r.verifyState)).toEqual(['passed', 'unverified']);
    // Without a credit it only answers; an invoice held by another credit is a duplicate.
    const other = await maker.ok<{ verdicts: InvoiceVerdict[] }>(creditApi.saveInvoiceVerification, {
      items: [
        { invoiceCode: '3100251130', invoiceNo: '10000021', invoiceDate: '2026-01-05', amount: '1.00' },
      ],
    });
    expect(other.verdicts[0]!.errors).toEqual([`发票已存在于授信 ${s.bizCode}`]);
    expect(saved.version).toBe(1);
  });

  it('imports receivables from xlsx as a per-row preview and saves nothing', async () => {
    const s = await maker.ok<Saved>(creditApi.saveCreditPlatform, platform(cust));
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('应收账款');
    ws.addRow(['发票代码', '发票号码', '开票日期', '发票金额', '债务人名称', '债务人编号', '到期日', '备注']);
    ws.addRow([
      '3100251130',
      '20000001',
      new Date(Date.UTC(2026, 0, 3)),
      1234.5,
      '核心企业乙',
      '',
      '2026-05-01',
      '',
    ]);
    ws.addRow(['3100251130', '20000001', '2026-01-03', '1.00', '核心企业乙', '', '2026-05-01', '']);
    ws.addRow(['12', '20000002', '2026-01-03', '-5', '', '', '2025-05-01', '']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const boundary = '----credit' + Date.now();
    const parts = [
      `--${boundary}\r\nContent-Disposition: form-data; name="credBizCode"\r\n\r\n${s.bizCode}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="receivables.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
    ];
    const body = Buffer.concat([Buffer.from(parts.join('')), buf, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const res = await t.portal.app.inject({
      method: 'POST',
      url: creditApi.importReceivables,
      headers: {
        authorization: `Bearer ${maker.token!}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    const preview = (res.json() as { data: ImportPreviewRow[] }).data;
    expect(preview).toHaveLength(3);
    expect(preview[0]).toMatchObject({
      row: 2,
      item: {
        invoiceCode: '3100251130',
        invoiceNo: '20000001',
        invoiceDate: '2026-01-03',
        amount: '1234.50',
        dueDate: '2026-05-01',
      },
      errors: [],
    });
    expect(preview[1]!.errors).toEqual(['与第1行发票重复']);
    expect(preview[2]!.errors).toEqual(
      expect.arrayContaining([
        '发票代码必须是10位或12位数字',
        '债务人名称不能为空',
        '发票金额必须是大于0且最多两位小数的金额',
      ]),
    );
    expect(await maker.ok<ReceivableRow[]>(creditApi.receivables, undefined, q(s.bizCode))).toEqual([]);
    // The save call then saves the previewed rows.
    await maker.ok(creditApi.saveReceivables, {
      credBizCode: s.bizCode,
      version: 0,
      items: [{ ...preview[0]!.item, debtorCode: undefined, remark: undefined }],
    });
    expect(await maker.ok<ReceivableRow[]>(creditApi.receivables, undefined, q(s.bizCode))).toHaveLength(1);
    // Not multipart, or not xlsx: 400.
    expect((await maker.call(creditApi.importReceivables, undefined, { plain: true })).status).toBe(400);
  });

  it('attaches files to a credit and lists them per customer', async () => {
    const s = await maker.ok<Saved>(creditApi.saveCreditPlatform, platform(cust));
    const token = 'credfiletoken0000000000001';
    await db()
      .execute(sql`insert into files (file_token, storage_key, original_name, mime, size, sha256, uploaded_by_name)
      values (${token}, 'k1', '授信申请书.pdf', 'application/pdf', 10, ${'0'.repeat(64)}, 'admin')`);
    const r = await maker.ok<Saved>(creditApi.saveCredFile, {
      credBizCode: s.bizCode,
      version: 0,
      fileTokens: [token],
    });
    expect(r.version).toBe(1);
    const files = await maker.ok<FileInfo[]>(creditApi.credFile, undefined, q(s.bizCode));
    expect(files.map((f) => f.originFileName)).toEqual(['授信申请书.pdf']);
    const byCust = await maker.ok<FileInfo[]>(creditApi.custFileList, undefined, {
      query: { custBizCode: cust },
    });
    expect(byCust.map((f) => f.fileToken)).toContain(token);
    expect(
      (
        await maker.call(creditApi.saveCredFile, {
          credBizCode: s.bizCode,
          version: 1,
          fileTokens: ['missingtoken000000000000'],
        })
      ).status,
    ).toBe(400);
  });
});

describe('distribution and change', () => {
  let credit: string;
  let platformLine: LineFigures;
  let group: string;
  let member: string;
  let outsider: string;

  beforeAll(async () => {
    group = await addCustomer(db(), '集团母公司');
    member = await addCustomer(db(), '集团子公司一', { parent: group });
    outsider = await addCustomer(db(), '外部公司');
    credit = await approvedCredit(maker, checker, group, {
      over: { limitAmount: '1000.00' },
      debtors: [{ debtorName: '买方丁', limitAmount: '500.00' }],
    });
    platformLine = (await maker.ok<CreditView>(creditApi.creditPlatform, undefined, q(credit))).line!;
  });

  const dist = (items: unknown[], over: Record<string, unknown> = {}) => ({
    credBizCode: credit,
    items,
    ...over,
  });

  it('checks the distribution sum against the parent available, at save and at approval', async () => {
    const member1 = { targetType: 'member', custCode: member, amount: '300.00' };
    expect(
      (await maker.call(creditApi.saveCredDistribution, dist([{ ...member1, custCode: outsider }]))).msg,
    ).toContain('不属于该客户的集团');
    expect(
      (await maker.call(creditApi.saveCredDistribution, dist([{ targetType: 'member', amount: '1' }]))).msg,
    ).toBe('分配给集团成员时成员客户不能为空');
    const over = await maker.call(
      creditApi.saveCredDistribution,
      dist([member1, { targetType: 'product', product: 'supplyChain', amount: '700.01' }]),
    );
    expect([over.status, over.msg]).toEqual([
      409,
      `分配额度合计 1,000.01元 超过平台额度 ${platformLine.lineCode} 的可分配额度 1,000.00元`,
    ]);
    const draft = await maker.call(
      creditApi.saveCredDistribution,
      dist([{ targetType: 'member', custCode: member, amount: '1' }]),
    );
    const notApproved = await maker.ok<Saved>(creditApi.saveCreditPlatform, platform(group));
    expect(
      (
        await maker.call(creditApi.saveCredDistribution, {
          ...dist([member1]),
          credBizCode: notApproved.bizCode,
        })
      ).status,
    ).toBe(409);
    expect(draft.status).toBe(200);

    const d = await maker.ok<Saved>(
      creditApi.saveCredDistribution,
      dist([member1, { targetType: 'product', product: 'supplyChain', amount: '200.00' }], { submit: true }),
    );
    expect(d.state).toBe('pending');
    // Meanwhile a contract occupies 600 on the platform line: 300 + 200 no longer fit in 400.
    await db().transaction((tx) =>
      occupy(tx, {
        lineCode: platformLine.lineCode,
        amount: '600.00',
        docType: 'contract',
        docCode: '000000000777',
        date: '2026-01-15',
        actor: { userId: 1, userName: 'x' },
      }),
    );
    const late = await checker.call(creditApi.passCredDistribution, { comment: '同意' }, q(d.bizCode));
    expect([late.status, late.msg]).toEqual([409, expect.stringContaining('超过平台额度')]);
    expect((await maker.ok<DistView>(creditApi.credDistribution, undefined, q(d.bizCode))).state).toBe(
      'pending',
    );
    await checker.ok(creditApi.rejectCredDistribution, { comment: '额度不够' }, q(d.bizCode));

    const cur = await maker.ok<DistView>(
      creditApi.credDistribution,
      undefined,
      q(d.bizCode, { credBizCode: credit }),
    );
    const fixed = await maker.ok<Saved>(creditApi.saveCredDistribution, {
      ...dist([member1, { targetType: 'product', product: 'supplyChain', amount: '100.00' }], {
        submit: true,
      }),
      bizCode: d.bizCode,
      version: cur.version,
    });
    await checker.ok(creditApi.passCredDistribution, { comment: '同意' }, q(fixed.bizCode));
    const approved = await maker.ok<DistView>(creditApi.credDistribution, undefined, q(fixed.bizCode));
    expect(approved.parent).toMatchObject({
      limitAmount: '1000.00',
      occupiedAmount: '600.00',
      reservedAmount: '400.00',
      availableAmount: '0.00',
    });
    expect(approved.items.every((i) => i.lineCode)).toBe(true);
    const memberLines = await maker.ok<LineFigures[]>(creditApi.lines, undefined, {
      query: { custCode: member },
    });
    expect(memberLines).toMatchObject([
      {
        kind: 'distribution',
        limitAmount: '300.00',
        parentLineCode: platformLine.lineCode,
        custName: '集团子公司一',
      },
    ]);

    // A distribution line occupies only itself (the parent already reserved it).
    await db().transaction((tx) =>
      occupy(tx, {
        lineCode: memberLines[0]!.lineCode,
        amount: '250.00',
        docType: 'contract',
        docCode: '000000000778',
        date: '2026-01-15',
        actor: { userId: 1, userName: 'x' },
      }),
    );
    const [parentRow] = await db()
      .select()
      .from(creditLines)
      .where(eq(creditLines.bizCode, platformLine.lineCode));
    expect(parentRow).toMatchObject({ occupiedAmount: '600.00', reservedAmount: '400.00' });

    const util = await maker.ok<UtilisationRow[]>(creditApi.utilisation, {});
    expect(util.find((u) => u.custCode === group)).toMatchObject({
      limitAmount: '700.00',
      occupiedAmount: '600.00',
      availableAmount: '100.00',
    });
    expect(util.find((u) => u.custCode === member)).toMatchObject({
      limitAmount: '300.00',
      occupiedAmount: '250.00',
      availableAmount: '50.00',
    });

    const list = await maker.ok<Page<DistView>>(creditApi.credDistributionList, {
      credBizCode: credit,
      state: 'approved',
    });
    expect(list.list.map((r) => r.bizCode)).toEqual([fixed.bizCode]);
    expect((await maker.call(creditApi.deleteCredDistribution, undefined, q(fixed.bizCode))).status).toBe(
      409,
    );
    const draftCode = (draft.data as Saved).bizCode;
    await maker.ok(creditApi.deleteCredDistribution, undefined, q(draftCode));
    expect(await audits('credDistribution', fixed.bizCode)).toEqual(
      expect.arrayContaining(['create', 'submit', 'reject', 'update', 'approve']),
    );
  });

  it('changes a line: lowering below occupied refused, raise, extend, freeze and unfreeze, all in the history', async () => {
    // The platform line now has limit 1000, occupied 600, reserved 400.
    const lower = await maker.call(creditApi.saveCredChange, {
      credBizCode: credit,
      changeType: 'lower',
      newLimit: '999.99',
      reason: '降额',
    });
    expect([lower.status, lower.msg]).toEqual([
      409,
      '降额后额度不能低于已占用与已分配之和：已占用 600.00元，已分配 400.00元',
    ]);
    expect(
      (
        await maker.call(creditApi.saveCredChange, {
          credBizCode: credit,
          changeType: 'raise',
          reason: '提额',
        })
      ).msg,
    ).toBe('变更后额度不能为空');
    expect(
      (
        await maker.call(creditApi.saveCredChange, {
          credBizCode: credit,
          changeType: 'raise',
          newLimit: '900',
          reason: '提额',
        })
      ).status,
    ).toBe(400);

    const raise = await maker.ok<Saved>(creditApi.saveCredChange, {
      credBizCode: credit,
      changeType: 'raise',
      newLimit: '1500.00',
      reason: '经营规模扩大',
      submit: true,
    });
    await checker.ok(creditApi.passCredChange, { comment: '同意' }, q(raise.bizCode));
    const applied = await maker.ok<ChangeView>(creditApi.credChange, undefined, q(raise.bizCode));
    expect(applied.line).toMatchObject({ limitAmount: '1500.00', availableAmount: '500.00' });
    // The credit's own view shows the raised limit in its header, from the same ledger line.
    const head = await maker.ok<CreditView>(creditApi.creditPlatform, undefined, q(credit));
    expect([head.limitAmount, head.line!.limitAmount]).toEqual(['1500.00', '1500.00']);

    // A lower saved while room existed is re-checked at approval.
    const low = await maker.ok<Saved>(creditApi.saveCredChange, {
      credBizCode: credit,
      changeType: 'lower',
      newLimit: '1200.00',
      reason: '压降',
      submit: true,
    });
    await db().transaction((tx) =>
      occupy(tx, {
        lineCode: platformLine.lineCode,
        amount: '300.00',
        docType: 'contract',
        docCode: '000000000779',
        date: '2026-01-15',
        actor: { userId: 1, userName: 'x' },
      }),
    );
    const refused = await checker.call(creditApi.passCredChange, { comment: '同意' }, q(low.bizCode));
    expect([refused.status, refused.msg]).toEqual([
      409,
      expect.stringContaining('降额后额度不能低于已占用与已分配之和'),
    ]);
    await checker.ok(creditApi.rejectCredChange, { comment: '已有新占用' }, q(low.bizCode));

    const ext = await maker.ok<Saved>(creditApi.saveCredChange, {
      credBizCode: credit,
      changeType: 'extend',
      newEndDate: '2027-06-30',
      reason: '展期',
      submit: true,
    });
    await checker.ok(creditApi.passCredChange, { comment: '同意' }, q(ext.bizCode));
    const ft = await maker.ok<FtRow[]>(creditApi.creditFt, undefined, q(credit));
    expect(ft[0]!.line!.endDate).toBe('2027-06-30');

    const debtorLine = ft[0]!.line!.lineCode;
    const tooHigh = await maker.call(creditApi.saveCredChange, {
      credBizCode: credit,
      lineCode: debtorLine,
      changeType: 'raise',
      newLimit: '1500.01',
      reason: 'x',
    });
    expect(tooHigh.msg).toBe('保理子额度不能超过平台额度 1,500.00元');

    const freeze = await maker.ok<Saved>(creditApi.saveCredChange, {
      credBizCode: credit,
      changeType: 'freeze',
      reason: '风险预警',
      submit: true,
    });
    await checker.ok(creditApi.passCredChange, { comment: '同意' }, q(freeze.bizCode));
    await expect(
      db().transaction((tx) =>
        occupy(tx, {
          lineCode: debtorLine,
          amount: '1.00',
          docType: 'contract',
          docCode: '000000000780',
          date: '2026-01-15',
          actor: { userId: 1, userName: 'x' },
        }),
      ),
    ).rejects.toMatchObject({ status: 409, message: expect.stringContaining('额度已冻结') });
    expect(
      (
        await maker.call(creditApi.saveCredChange, {
          credBizCode: credit,
          changeType: 'freeze',
          reason: 'again',
        })
      ).msg,
    ).toBe('额度已冻结');
    const util = await maker.ok<UtilisationRow[]>(creditApi.utilisation, { custCode: group });
    // The product child (100.00) is frozen with its parent.
    expect(util[0]).toMatchObject({
      limitAmount: '1200.00',
      occupiedAmount: '900.00',
      frozenAmount: '300.00',
      availableAmount: '0.00',
    });
    const unfreeze = await maker.ok<Saved>(creditApi.saveCredChange, {
      credBizCode: credit,
      changeType: 'unfreeze',
      reason: '风险解除',
      submit: true,
    });
    await checker.ok(creditApi.passCredChange, { comment: '同意' }, q(unfreeze.bizCode));

    const changes = await maker.ok<Page<ChangeView>>(creditApi.credChangeList, {
      credBizCode: credit,
      state: 'approved',
    });
    expect(changes.list.map((c) => c.changeType).sort()).toEqual(['extend', 'freeze', 'raise', 'unfreeze']);
    const view = await maker.ok<ChangeView>(
      creditApi.credChange,
      undefined,
      q(raise.bizCode, { credBizCode: credit }),
    );
    expect(view).toMatchObject({ oldLimit: '1000.00', newLimit: '1500.00', state: 'approved' });
    const draft = await maker
      .ok<Saved>(creditApi.saveCredChange, { credBizCode: credit, changeType: 'unfreeze', reason: 'x' })
      .catch(() => null);
    expect(draft).toBeNull();

    const history = await maker.ok<HistoryRow[]>(creditApi.creditHistory, undefined, q(credit));
    const platformRows = history
      .filter((h) => h.lineCode === platformLine.lineCode)
      .map((h) => [h.movement, h.amount, h.occupiedAfter]);
    expect(platformRows).toEqual([
      ['create', '1000.00', '0.00'],
      ['occupy', '600.00', '600.00'],
      ['reserve', '400.00', '600.00'],
      ['limit_change', '500.00', '600.00'],
      ['occupy', '300.00', '900.00'],
      ['extend', '0.00', '900.00'],
      ['freeze', '0.00', '900.00'],
      ['unfreeze', '0.00', '900.00'],
    ]);
    expect(history.filter((h) => h.movement === 'extend')).toHaveLength(4);
    expect(history.every((h) => h.docCode && h.actorName)).toBe(true);
  });
});

describe('distribution lines, their files, and the remaining calls', () => {
  it('raises and lowers a distribution line through its parent reservation, attaches distribution files, deletes a draft change', async () => {
    const group = await addCustomer(db(), '二号集团');
    const member = await addCustomer(db(), '二号成员', { parent: group });
    const credit = await approvedCredit(maker, checker, group, { over: { limitAmount: '1000.00' } });
    const d = await maker.ok<Saved>(creditApi.saveCredDistribution, {
      credBizCode: credit,
      items: [
        { targetType: 'member', custCode: member, amount: '400.00' },
        { targetType: 'product', product: 'reverseFactoring', amount: '100.00' },
      ],
    });
    const token = 'distfiletoken000000000001';
    await db()
      .execute(sql`insert into files (file_token, storage_key, original_name, mime, size, sha256, uploaded_by_name)
      values (${token}, 'k2', '分配审批表.pdf', 'application/pdf', 10, ${'0'.repeat(64)}, 'admin')`);
    const f = await maker.ok<Saved>(creditApi.saveCredDistributionFile, {
      distBizCode: d.bizCode,
      version: d.version,
      fileTokens: [token],
    });
    expect(f.version).toBe(d.version + 1);
    expect(
      (await maker.ok<FileInfo[]>(creditApi.credDistributionFile, undefined, q(d.bizCode))).map(
        (x) => x.originFileName,
      ),
    ).toEqual(['分配审批表.pdf']);
    expect(
      (
        await maker.call(
          creditApi.credDistributionFile,
          undefined,
          q(d.bizCode, { credBizCode: '000000000998' }),
        )
      ).status,
    ).toBe(404);
    const cur = await maker.ok<DistView>(creditApi.credDistribution, undefined, q(d.bizCode));
    await maker.ok(creditApi.saveCredDistribution, {
      bizCode: d.bizCode,
      version: cur.version,
      credBizCode: credit,
      items: cur.items.map(({ id: _id, lineCode: _l, ...i }) => i),
      submit: true,
    });
    await checker.ok(creditApi.passCredDistribution, { comment: '同意' }, q(d.bizCode));
    const view = await maker.ok<DistView>(creditApi.credDistribution, undefined, q(d.bizCode));
    expect(view.items.map((i) => [i.targetType, i.amount])).toEqual([
      ['member', '400.00'],
      ['product', '100.00'],
    ]);
    const memberLine = view.items[0]!.lineCode!;

    // Raise the member's line by 600: the parent has only 500 left.
    const tooMuch = await maker.call(creditApi.saveCredChange, {
      credBizCode: credit,
      lineCode: memberLine,
      changeType: 'raise',
      newLimit: '1000.00',
      reason: '提额',
    });
    expect([tooMuch.status, tooMuch.msg]).toEqual([409, expect.stringContaining('可分配额度不足')]);
    const raise = await maker.ok<Saved>(creditApi.saveCredChange, {
      credBizCode: credit,
      lineCode: memberLine,
      changeType: 'raise',
      newLimit: '900.00',
      reason: '提额',
      submit: true,
    });
    await checker.ok(creditApi.passCredChange, { comment: '同意' }, q(raise.bizCode));
    const parent = (await maker.ok<CreditView>(creditApi.creditPlatform, undefined, q(credit))).line!;
    expect(parent).toMatchObject({ reservedAmount: '1000.00', availableAmount: '0.00' });
    const lower = await maker.ok<Saved>(creditApi.saveCredChange, {
      credBizCode: credit,
      lineCode: memberLine,
      changeType: 'lower',
      newLimit: '200.00',
      reason: '压降',
      submit: true,
    });
    await checker.ok(creditApi.passCredChange, { comment: '同意' }, q(lower.bizCode));
    expect((await maker.ok<CreditView>(creditApi.creditPlatform, undefined, q(credit))).line).toMatchObject({
      reservedAmount: '300.00',
      availableAmount: '700.00',
    });
    // A child never beyond its parent's end date.
    const late = await maker.call(creditApi.saveCredChange, {
      credBizCode: credit,
      lineCode: memberLine,
      changeType: 'extend',
      newEndDate: '2027-01-31',
      reason: '延期',
    });
    expect([late.status, late.msg]).toEqual([409, '变更后到期日不能晚于上级额度的到期日 2026-12-31']);
    // A line of another credit is refused.
    expect(
      (
        await maker.call(creditApi.saveCredChange, {
          credBizCode: credit,
          lineCode: '000000000001',
          changeType: 'freeze',
          reason: 'x',
        })
      ).msg,
    ).toBe('额度编号不属于该授信');

    const draft = await maker.ok<Saved>(creditApi.saveCredChange, {
      credBizCode: credit,
      changeType: 'freeze',
      reason: '草稿',
    });
    await maker.ok(creditApi.deleteCredChange, undefined, q(draft.bizCode));
    expect((await maker.call(creditApi.credChange, undefined, q(draft.bizCode))).status).toBe(404);
    expect((await maker.call(creditApi.deleteCredChange, undefined, q(raise.bizCode))).msg).toBe(
      '单据已审核，不能删除',
    );

    const history = await maker.ok<HistoryRow[]>(creditApi.creditHistory, undefined, q(credit));
    const member400 = history
      .filter((h) => h.lineCode === memberLine)
      .map((h) => [h.movement, h.amount, h.limitAfter]);
    expect(member400).toEqual([
      ['create', '400.00', '400.00'],
      ['limit_change', '500.00', '900.00'],
      ['limit_change', '-700.00', '200.00'],
    ]);
    const parentRows = history
      .filter((h) => h.lineCode === parent.lineCode)
      .map((h) => [h.movement, h.amount, h.reservedAfter]);
    expect(parentRows).toEqual([
      ['create', '1000.00', '0.00'],
      ['reserve', '500.00', '500.00'],
      ['reserve', '500.00', '1000.00'],
      ['unreserve', '700.00', '300.00'],
    ]);
  });

  it('needs the screen codes: a user with only the credit list cannot save a distribution or pass a credit', async () => {
    const { db: d } = t.database;
    await d.execute(
      sql`insert into roles (biz_code, name, code) values ('000000900001', '授信查看', 'credit-viewer')`,
    );
    await d.execute(
      sql`insert into role_menus select id, 'ft-credit-info' from roles where code = 'credit-viewer'`,
    );
    await d.execute(sql`insert into users (user_code, user_name, real_name, password_hash)
      select '000000900001', 'viewer', '查看员', password_hash from users where user_name = 'checker'`);
    await d.execute(
      sql`insert into user_roles select u.id, r.id from users u, roles r where u.user_name = 'viewer' and r.code = 'credit-viewer'`,
    );
    const viewer = await t.login('viewer', 'Checker@123456');
    expect((await viewer.call(creditApi.creditList, {})).status).toBe(200);
    expect(
      (await viewer.call(creditApi.saveCredDistribution, { credBizCode: '000000000001', items: [] })).status,
    ).toBe(401);
    expect((await viewer.call(creditApi.passCredit, { comment: 'x' }, q('000000000001'))).status).toBe(401);
    expect((await viewer.call(creditApi.saveCreditPlatform, platform(cust))).status).toBe(401);
  });
});
