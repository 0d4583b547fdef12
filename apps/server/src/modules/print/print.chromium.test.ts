import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@portal/contract/api';
import { HANDOVER_PATHS } from '@portal/contract/contract';
import { CLASS_PATHS } from '@portal/contract/classification';
import { PA_PATHS, type PaInit } from '@portal/contract/prepayment';
import {
  BIZ_TYPES,
  PRINT_MENU,
  PRINT_PATHS,
  type BizType,
  type PdfStatus,
  type TemplateRow,
  type TemplateView,
} from '@portal/contract/print';
import { buttonCode } from '@portal/contract/menus';
import { SYSPARAM_PATHS, type SysParamsView } from '@portal/contract/sysparams';
import { queryRows } from '../../platform/db/client';
import { PdfRenderer } from '../../platform/pdf';
import { sparticuzChromium } from '../../platform/chromium';
import { readPdf } from '../../testing/pdf-read';
import {
  createTestPortal,
  createUserWithCodes,
  onPostgres,
  secondPortal,
  type TestClient,
  type TestPortal,
  servedPaths,
} from '../../testing/harness';
import { addChecker, addCustomer } from '../credit/testkit';
import { approvedContract, contractBody, contractFixture, MONTHLY_RULE } from '../contract/testkit';

const printApi = servedPaths(PRINT_PATHS);
let t: TestPortal;
let admin: TestClient;
let checker: TestClient;
/** An approved 100,000.00 contract over 12 months whose customer's name holds markup. */
let contract: string;
const EVIL_NAME = '<script>alert(1)</script>华东机电有限公司';
const tmp = mkdtempSync(join(tmpdir(), 'print-test-'));

async function templateOf(bizType: BizType): Promise<TemplateRow> {
  const page = await admin.ok<Page<TemplateRow>>(printApi.list, { bizType, state: 'enabled' });
  return page.list[0]!;
}

async function html(bizType: BizType, docCode: string, client = admin): Promise<string> {
  const res = await client.call(printApi.perViewHtml, { bizType, docCode });
  if (res.httpStatus !== 200) throw new Error(`perViewHtml ${bizType} answered ${res.status} ${res.msg}`);
  expect(res.headers['content-type']).toContain('text/html');
  return res.raw.toString('utf8');
}

beforeAll(async () => {
  t = await createTestPortal({ DEMO_DATA: 'on' });
  admin = await t.login();
  // The demo office has a user named checker already.
  checker = await addChecker(t, 'printChecker');
  const fixture = await contractFixture(t, admin, checker, { rule: MONTHLY_RULE, limit: '5000000.00' });
  await t.database.db.execute(
    sql`update companies set comp_name = ${EVIL_NAME} where comp_code = ${fixture.custCode}`,
  );
  ({ bizCode: contract } = await approvedContract(t, admin, checker, {
    fixture,
    over: { maturityDate: '2027-01-15' },
  }));
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('print templates (/ft/api/print)', () => {
  it('lists the business types and each type’s placeholder catalogue', async () => {
    const types = await admin.ok<{ code: string; label: string }[]>(printApi.bizTypeList);
    expect(types.map((x) => x.code)).toEqual([...BIZ_TYPES]);
    expect(types[0]).toEqual({ code: 'contract', label: '保理合同' });
    const info = await admin.ok<{ fields: { key: string }[]; lists: { key: string }[] }>(
      printApi.info,
      undefined,
      {
        query: { bizType: 'contract' },
      },
    );
    expect(info.fields.map((x) => x.key)).toEqual(
      expect.arrayContaining(['custName', 'financingAmount', 'financingAmountCapitals']),
    );
    expect(info.lists.map((l) => l.key)).toEqual(['plan', 'receivables']);
    const bad = await admin.call(printApi.info, undefined, { query: { bizType: 'nope' } });
    expect(bad.status).toBe(400);
  });

  it('stores a template without script, event handlers or external URLs', async () => {
    const saved = await admin.ok<{ bizCode: string }>(printApi.save, {
      name: '净化测试',
      bizType: 'contract',
      content: `<p onclick="steal()">甲方：{{custName}}</p><script>alert(1)</script>
<img src="x" onerror="alert(2)"><img src="http://evil.example/x.png"><a href="javascript:alert(3)">点我</a>
<div style="background:url(http://evil.example/y.png);text-align:center">居中</div><iframe src="https://evil.example"></iframe>
<style>body{background:url(http://evil.example/z)}</style><img src="data:image/png;base64,iVBORw0KGgo=" alt="章">`,
    });
    const view = await admin.ok<TemplateView>(printApi.view, undefined, {
      query: { bizCode: saved.bizCode },
    });
    expect(view.state).toBe('disabled');
    for (const banned of [
      '<script',
      'onclick',
      'onerror',
      'evil.example',
      'javascript:',
      'url(',
      '<iframe',
      '<style',
    ]) {
      expect(view.content).not.toContain(banned);
    }
    expect(view.content).toContain('<p>甲方：{{custName}}</p>');
    expect(view.content).toContain('<div style="text-align:center">居中</div>');
    expect(view.content).toContain('src="data:image/png;base64,iVBORw0KGgo="');
  });

  it('refuses unknown placeholders, malformed sections and an empty body, naming the problem', async () => {
    const save = (content: string) =>
      admin.call(printApi.save, { name: '错误模板', bizType: 'contract', content });
    expect((await save('<p>{{custNmae}} {{#plan}}{{invoiceNo}}{{/plan}}</p>')).msg).toBe(
      '模板包含保理合同没有的占位符：{{custNmae}}、{{invoiceNo}}',
    );
    expect((await save('<p>\n{{#plan}}<b>x</b></p>')).msg).toBe(
      '模板第2行：{{#plan}} 缺少结束标记 {{/plan}}',
    );
    const empty = await save('<script>alert(1)</script>');
    expect([empty.status, empty.msg]).toEqual([400, '模板内容不能为空']);
    const noName = await admin.call(printApi.save, { bizType: 'contract', content: '<p>x</p>' });
    expect([noName.status, noName.msg]).toEqual([400, '模板名称不能为空']);
  });

  it('enables one template per type and core enterprise; disabled ones neither print nor block delete', async () => {
    const general = await templateOf('credit');
    const rival = await admin.ok<{ bizCode: string }>(printApi.save, {
      name: '授信审批表（新版）',
      bizType: 'credit',
      content: '<h1>新版 {{custName}}</h1>',
    });
    const q = { query: { bizCode: rival.bizCode } };
    const clash = await admin.call(printApi.enable, undefined, q);
    expect([clash.status, clash.msg]).toEqual([
      409,
      `同一业务类型和核心企业只能启用一个模板，「${general.name}」已启用，请先停用`,
    ]);
    const [credit] = await queryRows<{ biz_code: string }>(
      t.database.db,
      sql`select biz_code from credits limit 1`,
    );
    const pinned = await admin.call(printApi.perViewHtml, {
      bizType: 'credit',
      docCode: credit!.biz_code,
      tplBizCode: rival.bizCode,
    });
    expect([pinned.status, pinned.msg]).toEqual([409, '模板「授信审批表（新版）」已停用，不能打印']);

    await admin.ok(printApi.disable, undefined, { query: { bizCode: general.bizCode } });
    const none = await admin.call(printApi.perViewHtml, { bizType: 'credit', docCode: credit!.biz_code });
    expect([none.status, none.msg]).toEqual([409, '没有启用的授信审批表模板，请先在打印模板中启用']);
    await admin.ok(printApi.enable, undefined, q);
    expect(await html('credit', credit!.biz_code)).toContain('<h1>新版 ');
    expect((await admin.call(printApi.enable, undefined, q)).msg).toBe('模板已是启用状态');
    expect((await admin.call(printApi.delete, undefined, q)).msg).toBe('启用中的模板不能删除，请先停用');
    await admin.ok(printApi.disable, undefined, q);
    await admin.ok(printApi.delete, undefined, q);
    expect((await admin.call(printApi.view, undefined, q)).status).toBe(404);
    await admin.ok(printApi.enable, undefined, { query: { bizCode: general.bizCode } });
  });

  it('prefers the template of the document’s core enterprise over the general one', async () => {
    const core = await addCustomer(t.database.db, '宏达建设集团有限公司', { roles: ['core'] });
    const cores = await admin.ok<{ code: string }[]>(printApi.getCoreComp);
    expect(cores.map((c) => c.code)).toContain(core);
    const supplierOnly = await admin.call(printApi.save, {
      name: 'x',
      bizType: 'contract',
      coreCompCode: await addCustomer(t.database.db, '某供应商有限公司'),
      content: '<p>x</p>',
    });
    expect([supplierOnly.status, supplierOnly.msg]).toEqual([400, '核心企业不存在']);
    const own = await admin.ok<{ bizCode: string }>(printApi.save, {
      name: '宏达专用合同',
      bizType: 'contract',
      coreCompCode: core,
      content: '<p>宏达专用：{{contractNo}}</p>',
    });
    await admin.ok(printApi.enable, undefined, { query: { bizCode: own.bizCode } });
    await t.database.db.execute(
      sql`update contracts set core_comp_code = ${core} where biz_code = ${contract}`,
    );
    try {
      expect(await html('contract', contract)).toContain('宏达专用：');
      const [other] = await queryRows<{ biz_code: string }>(
        t.database.db,
        sql`select biz_code from contracts where biz_code <> ${contract} limit 1`,
      );
      expect(await html('contract', other!.biz_code)).toContain('国内保理业务合同');
    } finally {
      await t.database.db.execute(
        sql`update contracts set core_comp_code = null where biz_code = ${contract}`,
      );
      await admin.ok(printApi.disable, undefined, { query: { bizCode: own.bizCode } });
    }
  });

  it('prints a contract with its data escaped, amounts in figures and capitals and the 12-item plan', async () => {
    const page = await html('contract', contract);
    expect(page.startsWith('<!doctype html><html lang="zh-CN">')).toBe(true);
    expect(page).not.toContain('<script');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;华东机电有限公司');
    expect(page).toContain('壹拾万元整（小写：¥100,000.00）');
    expect(page).not.toContain('{{');
    const planTable = page.slice(page.indexOf('<h2>附件一'), page.indexOf('<h2>附件二'));
    expect(planTable.match(/<tr>/g)).toHaveLength(13);
  });

  it('renders the contract as an A4 PDF of two pages whose text holds the parties and amounts', async () => {
    const res = await admin.call(printApi.perViewPdf, {
      bizType: 'contract',
      docCode: contract,
      disposition: 'attachment',
    });
    expect(res.httpStatus).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; .*filename\*=UTF-8''/);
    expect(res.raw.subarray(0, 5).toString()).toBe('%PDF-');
    const pdf = await readPdf(res.raw);
    expect(pdf.pages).toBe(2);
    // A4 is 595.28 × 841.89 pt; Chromium rounds to whole CSS pixels.
    expect(Math.abs(pdf.size[0] - 595.28)).toBeLessThan(1.5);
    expect(Math.abs(pdf.size[1] - 841.89)).toBeLessThan(1.5);
    // The font from npm, embedded in the page, not one of the machine's (docs/operations.md).
    expect(pdf.fonts).toEqual(['NotoSansSC-Thin']);
    const text = pdf.text.join('\n');
    expect(text).toContain('<script>alert(1)</script>华东机电有限公司');
    expect(text).toContain('壹拾万元整');
    expect(text).toContain('100,000.00');
    // The footer's page numbers.
    expect(text).toMatch(/第\s*1\s*页\s*\/\s*共\s*2\s*页/);
    expect(text).toMatch(/第\s*2\s*页\s*\/\s*共\s*2\s*页/);
  });

  it('previews a contract form that is not saved yet', async () => {
    const fixture = await contractFixture(t, admin, checker, { rule: MONTHLY_RULE });
    const body = contractBody(fixture, { financingAmount: '1004.50', maturityDate: '2026-04-15' });
    const res = await admin.call(printApi.preContViewHtml, { contract: body });
    expect(res.httpStatus).toBe(200);
    const page = res.raw.toString('utf8');
    expect(page).toContain(`合同号：${body.contractNo}`);
    expect(page).toContain('壹仟零肆元伍角（小写：¥1,004.50）');
    expect(page.slice(page.indexOf('<h2>附件一'), page.indexOf('<h2>附件二')).match(/<tr>/g)).toHaveLength(4);
    const bad = await admin.call(printApi.preContViewHtml, { contract: { ...body, financingAmount: 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('融资金额');
  });

  it('prints every business type of the demo documents with the standard templates', async () => {
    const [paid] = await queryRows<{ c: string }>(
      t.database.db,
      sql`select biz_code as c from paids limit 1`,
    );
    const [credit] = await queryRows<{ c: string }>(
      t.database.db,
      sql`select biz_code as c from credits limit 1`,
    );
    const [demo2] = await queryRows<{ c: string }>(
      t.database.db,
      sql`select biz_code as c from contracts where contract_no = 'DEMO-BL-002'`,
    );
    const init = await admin.ok<PaInit>(`/api${PA_PATHS.initBase}`, undefined, {
      query: { contBizCode: demo2!.c },
    });
    const pa = await admin.ok<{ preamtBizCode: string }>(`/api${PA_PATHS.saveBaseInfo}`, {
      contBizCode: init.contBizCode,
      method: 'transfer',
      bankBizCode: init.bankBizCode,
      receiveDate: init.receiveDate,
      payerName: init.payerName,
      lines: init.dues.map((d) => ({ dueId: d.dueId, amount: d.openAmount })),
    });
    const handover = await admin.ok<{ bizCode: string }>(`/api${HANDOVER_PATHS.save}`, {
      contBizCode: contract,
      handoverName: '王敏',
      receiverName: '李静',
      handoverDate: '2026-01-15',
      items: [{ docName: '商务合同<b>', kind: 'original', copies: 2, pages: 12 }],
    });
    const [loan] = await queryRows<{ c: string }>(
      t.database.db,
      sql`select biz_code as c from loans limit 1`,
    );
    // The demo's 回购单 (a draft on its disbursed contract).
    const [buyback] = await queryRows<{ c: string }>(
      t.database.db,
      sql`select biz_code as c from buybacks where deleted_at is null limit 1`,
    );
    const [cust] = await queryRows<{ c: string }>(
      t.database.db,
      sql`select cust_code as c from contracts where biz_code = ${contract}`,
    );
    const [live] = await queryRows<{ c: string }>(
      t.database.db,
      sql`select biz_code as c from contracts where status = 'effective' and loan_state = 'loaned' limit 1`,
    );
    const adj = await admin.ok<{ adjBizCode: string }>(`/api${CLASS_PATHS.saveBaseInfo}`, {
      contBizCode: live!.c,
      toClass: 'watch',
      reason: '买方付款意愿下降',
    });
    const [notice] = await queryRows<{ c: string }>(
      t.database.db,
      sql`select n.biz_code as c from assignment_notices n join contracts c on c.id = n.contract_id
           where c.biz_code = ${contract} limit 1`,
    );
    const docs: Record<BizType, string> = {
      assignNotice: notice!.c,
      statement: cust!.c,
      classAdjust: adj.adjBizCode,
      contract,
      loan: loan!.c,
      repayment: contract,
      handover: handover.bizCode,
      prepayment: pa.preamtBizCode,
      writeOff: paid!.c,
      credit: credit!.c,
      buyback: buyback!.c,
    };
    for (const type of BIZ_TYPES) {
      const page = await html(type, docs[type]);
      expect(page, type).not.toContain('{{');
      expect(page, type).toContain('<h1>');
    }
    expect(await html('handover', handover.bizCode)).toContain(
      '<td>商务合同&lt;b&gt;</td><td>原件</td><td>2</td>',
    );
    expect(await html('repayment', contract)).toMatch(/本期应还款日为2026-02-15/);
    const missing = await admin.call(printApi.perViewHtml, { bizType: 'writeOff', docCode: '000000099999' });
    expect([missing.status, missing.msg]).toEqual([404, '来款核销不存在']);
  });

  it('prints 本公司’s name, seal and signatory from 参数设置 at the foot of the 放款通知书 and the other notices', async () => {
    const params = servedPaths(SYSPARAM_PATHS);
    const before = (await admin.ok<SysParamsView>(params.get)).params;
    /** A 1×1 PNG. */
    const seal =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const [loan] = await queryRows<{ c: string }>(
      t.database.db,
      sql`select biz_code as c from loans where red_state is distinct from 'reversed' limit 1`,
    );
    const [cust] = await queryRows<{ c: string }>(
      t.database.db,
      sql`select cust_code as c from contracts where biz_code = ${contract}`,
    );
    const docs: [BizType, string][] = [
      ['loan', loan!.c],
      ['repayment', contract],
      ['contract', contract],
      ['statement', cust!.c],
    ];
    // Before 参数设置 has a seal and a signatory, the foot prints the name and blank lines.
    const unset = await html('loan', loan!.c);
    expect(unset).not.toContain('<img');
    expect(unset).toContain(`<td>${before.companyName}（盖章）</td>`);
    expect(unset).toContain('<td>签字：</td>');
    await admin.ok(params.save, {
      ...before,
      companyName: '华信商业保理有限公司',
      companySeal: seal,
      companySignatory: '张伟',
    });
    try {
      for (const [type, code] of docs) {
        const page = await html(type, code);
        expect(page, type).toContain(`<img src="${seal}" alt="公章" width="120" height="120" />`);
        expect(page, type).toMatch(/<td>(法定代表人或授权代表（签字）|签字)：张伟<\/td>/);
        expect(page, type).toContain('华信商业保理有限公司');
      }
      expect(await html('loan', loan!.c)).toContain(
        `<td>华信商业保理有限公司（盖章）<br /><img src="${seal}"`,
      );
      // And in the PDF: the signatory's line with its date under the seal.
      const res = await admin.call(printApi.perViewPdf, { bizType: 'loan', docCode: loan!.c });
      const text = (await readPdf(res.raw)).text.join('\n');
      expect(text).toMatch(/华信商业保理有限公司（盖章）\n签字：张伟\n日期：\d{4}年\d{1,2}月\d{1,2}日/);
    } finally {
      await admin.ok(params.save, before);
    }
  });

  it('lets a document print only with that screen’s 打印 button, and a draft body only for designers', async () => {
    await createUserWithCodes(t.database.db, 'printer', 'Printer@123456', [
      'ft-contract-info',
      buttonCode('ft-contract-info', 'print'),
    ]);
    const printer = await t.login('printer', 'Printer@123456');
    const ok = await printer.call(printApi.perViewHtml, { bizType: 'contract', docCode: contract });
    expect(ok.httpStatus).toBe(200);
    const [paid] = await queryRows<{ c: string }>(
      t.database.db,
      sql`select biz_code as c from paids limit 1`,
    );
    expect((await printer.call(printApi.perViewHtml, { bizType: 'writeOff', docCode: paid!.c })).status).toBe(
      401,
    );
    expect(
      (
        await printer.call(printApi.perViewHtml, {
          bizType: 'contract',
          docCode: contract,
          content: '<p>x</p>',
        })
      ).status,
    ).toBe(401);
    expect(
      (await printer.call(printApi.save, { name: 'x', bizType: 'contract', content: '<p>x</p>' })).status,
    ).toBe(401);
    expect(
      (await t.client().call(printApi.perViewPdf, { bizType: 'contract', docCode: contract })).status,
    ).toBe(403);
    await createUserWithCodes(t.database.db, 'designer', 'Designer@123456', [
      PRINT_MENU,
      buttonCode(PRINT_MENU, 'save'),
    ]);
    const designer = await t.login('designer', 'Designer@123456');
    const blind = await designer.call(printApi.perViewHtml, {
      bizType: 'contract',
      docCode: contract,
      content: '<p>x</p>',
    });
    expect(blind.status).toBe(401);
    const draft = await admin.call(printApi.perViewHtml, {
      bizType: 'contract',
      docCode: contract,
      content: '<p>草稿 {{contractNo}} <img src=x onerror=alert(1)></p>',
    });
    expect(draft.raw.toString()).toMatch(/<p>草稿 BL-2026-\d{4} <img \/><\/p>/);
  });
});

describe.runIf(onPostgres)('concurrency (PostgreSQL)', () => {
  it('lets one of 10 rival templates be enabled when all are enabled at once', async () => {
    const core = await addCustomer(t.database.db, '并发核心企业有限公司', { roles: ['core'] });
    const codes: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await admin.ok<{ bizCode: string }>(printApi.save, {
        name: `并发模板${i}`,
        bizType: 'handover',
        coreCompCode: core,
        content: `<p>{{bizCode}} ${i}</p>`,
      });
      codes.push(r.bizCode);
    }
    const answers = await Promise.all(
      codes.map((bizCode) => admin.call(printApi.enable, undefined, { query: { bizCode } })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
    const [n] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from print_templates where core_comp_code = ${core} and state = 'enabled'`,
    );
    expect(n!.n).toBe(1);
  });
});

// Each case starts a second portal on the file's database (its demo documents) with its own
// CHROMIUM_PATH, as a server restarted with that setting: generous time on a busy machine.
describe(
  'an office without a Chromium (docs/operations.md "Print PDFs and Chromium")',
  { timeout: 180_000 },
  () => {
    it('with CHROMIUM_PATH=off answers the PDF call with the reason and the HTML preview', async () => {
      const off = await secondPortal(t, { CHROMIUM_PATH: 'off' });
      try {
        const res = await (
          await off.login()
        ).call(printApi.perViewPdf, { bizType: 'contract', docCode: contract });
        expect(res.status).toBe(400);
        expect(res.msg).toBe('PDF打印未启用（服务器设置CHROMIUM_PATH=off），请用“预览”在浏览器中打印');
      } finally {
        await off.close();
      }
    });

    it('with CHROMIUM_PATH naming no file still previews the contract, and says why there is no PDF', async () => {
      const missing = await secondPortal(t, { CHROMIUM_PATH: join(tmp, 'no-chromium') });
      try {
        const client = await missing.login();
        const [row] = await queryRows<{ biz_code: string }>(
          missing.database.db,
          sql`select biz_code from contracts where contract_no like 'DEMO-%' limit 1`,
        );
        expect(row, 'the demo office has contracts').toBeDefined();
        const doc = { bizType: 'contract', docCode: row!.biz_code };
        const pdf = await client.call(printApi.perViewPdf, doc);
        expect(pdf.status).toBe(400);
        // The print menus learn it before anyone clicks.
        const status = await client.ok<PdfStatus>(printApi.pdfStatus, {});
        expect(status).toEqual({ available: false, reason: pdf.msg });
        expect(pdf.msg).toMatch(/^PDF打印不可用：服务器上CHROMIUM_PATH所指的Chromium不存在或不可执行.*预览”/);
        expect(await html('contract', row!.biz_code, client)).toContain('国内保理业务合同');
        // The file's own portal, on the same database, still has its Chromium.
        expect((await admin.ok<PdfStatus>(printApi.pdfStatus, {})).available).toBe(true);
      } finally {
        await missing.close();
      }
    });
  },
);

describe('PDF renderer', () => {
  it('kills a render that outlives its timeout and serves the next request with a fresh browser', async () => {
    const renderer = new PdfRenderer({ executablePath: '/usr/bin/chromium', timeoutMs: 20_000 });
    try {
      await expect(renderer.render('<p>慢</p>', 1)).rejects.toThrow(/exceeded 1 ms; the browser was killed/);
      const pdf = await renderer.render('<html lang="zh-CN"><body><p>第二次</p></body></html>');
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(renderer.launches).toBe(2);
      await renderer.render('<p>复用</p>');
      expect(renderer.launches).toBe(2);
    } finally {
      await renderer.close();
    }
  });
});

// The fallback when neither CHROMIUM_PATH nor Debian's chromium is there: the browser inside the npm
// package @sparticuz/chromium (Linux x64 only), unpacked on first use.
describe.runIf(process.platform === 'linux' && process.arch === 'x64')('the bundled Chromium', () => {
  it('renders a PDF with the embedded Chinese font', { timeout: 180_000 }, async () => {
    const found = await sparticuzChromium();
    expect(found).toHaveProperty('path');
    const renderer = new PdfRenderer({ executablePath: (found as { path: string }).path, timeoutMs: 60_000 });
    try {
      const pdf = await readPdf(
        await renderer.render('<html lang="zh-CN"><body><p>应收账款转让通知书</p></body></html>'),
      );
      expect(pdf.text[0]).toContain('应收账款转让通知书');
      expect(pdf.text[0]).toMatch(/第\s*1\s*页\s*\/\s*共\s*1\s*页/);
      expect(pdf.fonts).toEqual(['NotoSansSC-Thin']);
    } finally {
      await renderer.close();
    }
  });
});
