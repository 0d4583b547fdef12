import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIZ_TYPES } from '@portal/contract/print';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, type TestPortal } from '../../testing/harness';
import { seedStandardTemplates, STANDARD_TEMPLATES_KEY } from './seed';
import { cleanTemplate, printingTemplate } from './service';
import { RELEASED_STANDARD_HASHES, STANDARD_TEMPLATES, templateHash } from './standard-templates';

interface Tpl {
  biz_code: string;
  biz_type: string;
  name: string;
  content: string;
  state: string;
  deleted: boolean;
  version: number;
}

let t: TestPortal;
const db = () => t.database.db;
const templates = () =>
  queryRows<Tpl>(
    db(),
    sql`select biz_code, biz_type, name, content, state, deleted_at is not null as deleted, version
          from print_templates order by id`,
  );
const provided = async () =>
  (
    await queryRows<{ value: string }>(
      db(),
      sql`select value from portal_settings where key = ${STANDARD_TEMPLATES_KEY}`,
    )
  )[0]?.value;

/** A later start of the server: the modules' seeds run again (server.ts). */
const restart = () => seedStandardTemplates({ db: db() });
const NOTHING = { added: [], upgraded: [] };

/** The standard 放款通知书 of the previous release (four columns, no 退还多收), as it shipped. */
const LOAN_BEFORE = `<h1>放款通知书</h1>
{{#redMark}}<p style="text-align: center; color: #cf1322; font-size: 20px; border: 2px solid #cf1322">{{redMark}}</p>{{/redMark}}
<p>{{custName}}：</p>
<p style="text-indent: 2em">根据保理合同{{contractNo}}的约定，我司已于{{valueDate}}向贵司发放融资款。融资金额人民币{{financingAmount}}元，扣收前期款项合计人民币{{deductedAmount}}元，实付金额人民币{{netAmount}}元（大写：{{netAmountCapitals}}）。明细如下：</p>
<table>
<thead><tr><th>款项</th><th class="num">应收金额</th><th class="num">前期款已收</th><th class="num">本次扣收</th></tr></thead>
<tbody>
{{#lines}}<tr><td>{{kind}}</td><td class="num">{{amount}}</td><td class="num">{{prepaid}}</td><td class="num">{{deducted}}</td></tr>{{/lines}}
</tbody>
</table>
<table class="plain">
<tr><td>付款账户：{{payBankName}} {{payAccountNo}}</td><td>收款账户：{{payeeBankName}} {{payeeAccountNo}}</td></tr>
<tr><td>银行流水号：{{serialNo}}</td><td>放款单编号：{{loanBizCode}}</td></tr>
</table>
<p style="text-align: right; margin-top: 32px">{{printDate}}</p>`;

/** The standard 客户对账单 of the previous release (portrait, blank 保理商 line), as it shipped. */
const STATEMENT_BEFORE = `<h1>客户对账单</h1>
<table class="plain">
<tr><td>客户名称：{{custName}}</td><td>客户编号：{{custCode}}</td></tr>
<tr><td>对账期间：{{dateFrom}} 至 {{dateTo}}</td><td>合同号：{{contractNo}}</td></tr>
</table>
<p>期初本金余额人民币{{opening}}元。</p>
<table>
<thead><tr><th>日期</th><th>业务类型</th><th>单据编号</th><th>合同号</th><th class="num">放款本金</th><th class="num">回款金额</th><th class="num">本金</th><th class="num">利息</th><th class="num">费用</th><th class="num">罚息</th><th class="num">本金余额</th><th>备注</th></tr></thead>
<tbody>
{{#lines}}<tr><td>{{date}}</td><td>{{kind}}</td><td>{{docCode}}</td><td>{{contractNo}}</td><td class="num">{{disbursed}}</td><td class="num">{{received}}</td><td class="num">{{principal}}</td><td class="num">{{interest}}</td><td class="num">{{fee}}</td><td class="num">{{penalty}}</td><td class="num">{{balance}}</td><td>{{remark}}</td></tr>{{/lines}}
</tbody>
</table>
<p>本期放款{{disbursed}}元；本期回款{{received}}元，其中本金{{principal}}元、利息{{interest}}元、费用{{fee}}元、罚息{{penalty}}元。</p>
<p>期末本金余额人民币{{closing}}元（大写：{{closingCapitals}}）。</p>
<p>请贵司核对上述往来，如有不符，请于收到本对账单之日起十日内提出。</p>
<table class="plain" style="margin-top: 32px">
<tr><td>保理商（盖章）：</td><td>客户确认（盖章）：</td><td>日期：{{printDate}}</td></tr>
</table>`;

beforeAll(async () => {
  // DEMO_DATA off: the database has run the migrations and the seeds, and nothing else.
  t = await createTestPortal();
});
afterAll(() => t.close());

describe('standard print templates are reference data (every database, once per type)', () => {
  it('a database started without demo data has every standard template enabled, 放款通知书 included', async () => {
    const rows = await templates();
    expect(rows.map((r) => [r.biz_type, r.name, r.state])).toEqual(
      BIZ_TYPES.map((b) => [b, STANDARD_TEMPLATES[b].name, 'enabled']),
    );
    expect(await provided()).toBe(BIZ_TYPES.join(','));
    // What the 放款 print looks up no longer answers 没有启用的放款通知书模板.
    const loan = await printingTemplate(db(), 'loan', null, undefined);
    expect(loan.name).toBe('标准放款通知书');
  });

  it('a second start changes nothing', async () => {
    const before = await templates();
    expect(await restart()).toEqual(NOTHING);
    expect(await templates()).toEqual(before);
  });

  it('an office’s edits, its own templates and the templates it deleted are left as they are', async () => {
    const [loan] = (await templates()).filter((r) => r.biz_type === 'loan');
    await db().execute(
      sql`update print_templates set content = '<p>本行放款通知 {{loanBizCode}}</p>', name = '本行放款通知书', version = version + 1
           where biz_code = ${loan!.biz_code}`,
    );
    await db().execute(
      sql`update print_templates set deleted_at = now(), state = 'disabled' where biz_type = 'credit'`,
    );
    const before = await templates();
    expect(await restart()).toEqual(NOTHING);
    expect(await templates()).toEqual(before);
    const after = (await templates()).find((r) => r.biz_type === 'loan')!;
    expect([after.name, after.content]).toEqual(['本行放款通知书', '<p>本行放款通知 {{loanBizCode}}</p>']);
    expect((await templates()).filter((r) => r.biz_type === 'credit' && !r.deleted)).toEqual([]);
  });

  it('an upgraded office gets the types it has no template of, and keeps the ones it has', async () => {
    // As an office whose database predates this seed: templates for some types (its own, one of
    // them disabled), none for 放款, and no record of standard templates.
    await db().execute(sql`delete from print_templates`);
    await db().execute(sql`delete from portal_settings where key = ${STANDARD_TEMPLATES_KEY}`);
    await db().execute(
      sql`insert into print_templates (biz_code, name, biz_type, content, state)
          values ('900000000001', '本行保理合同', 'contract', '<p>{{contractNo}}</p>', 'enabled'),
                 ('900000000002', '本行核销单', 'writeOff', '<p>核销</p>', 'disabled')`,
    );
    const { added } = await restart();
    expect(added).toEqual(BIZ_TYPES.filter((b) => b !== 'contract' && b !== 'writeOff'));
    const rows = await templates();
    expect(rows.filter((r) => r.biz_type === 'contract').map((r) => r.name)).toEqual(['本行保理合同']);
    expect(rows.filter((r) => r.biz_type === 'writeOff').map((r) => [r.name, r.state])).toEqual([
      ['本行核销单', 'disabled'],
    ]);
    expect((await printingTemplate(db(), 'loan', null, undefined)).name).toBe('标准放款通知书');
    expect(await provided()).toBe(BIZ_TYPES.join(','));
    // And once more: nothing.
    expect(await restart()).toEqual(NOTHING);
    expect(await templates()).toEqual(rows);
  });

  it('records every standard text it stores, so a later release recognises it unedited', () => {
    for (const b of BIZ_TYPES)
      expect(RELEASED_STANDARD_HASHES[b], b).toContain(
        templateHash(cleanTemplate(b, STANDARD_TEMPLATES[b].content)),
      );
  });

  it('brings an unedited template of an earlier release to the current standard text, and no other', async () => {
    await db().execute(sql`delete from print_templates`);
    const before = cleanTemplate('loan', LOAN_BEFORE);
    expect(RELEASED_STANDARD_HASHES.loan).toContain(templateHash(before));
    const edited = before.replace('明细如下：', '明细如下（本行格式）：');
    await db().execute(
      sql`insert into print_templates (biz_code, name, biz_type, content, state, deleted_at)
          values ('900000000011', '标准放款通知书', 'loan', ${before}, 'enabled', null),
                 ('900000000012', '本行放款通知书', 'loan', ${edited}, 'disabled', null),
                 ('900000000013', '标准放款通知书', 'loan', ${before}, 'disabled', now())`,
    );
    const untouched = (await templates()).filter((r) => r.biz_code !== '900000000011');
    expect(await restart()).toEqual({ added: [], upgraded: ['900000000011'] });
    const rows = await templates();
    expect(rows.find((r) => r.biz_code === '900000000011')).toMatchObject({
      name: '标准放款通知书',
      state: 'enabled',
      version: 1,
      content: cleanTemplate('loan', STANDARD_TEMPLATES.loan.content),
    });
    expect(rows.find((r) => r.biz_code === '900000000011')!.content).toContain('退还多收');
    expect(rows.find((r) => r.biz_code === '900000000011')!.content).toContain('签字：{{companySignatory}}');
    expect(rows.filter((r) => r.biz_code !== '900000000011')).toEqual(untouched);
    // Once upgraded, it is the current text: a later start changes nothing.
    expect(await restart()).toEqual(NOTHING);
    expect(await templates()).toEqual(rows);
  });

  it('brings the previous release’s 客户对账单 to the one-line ledger with 本公司’s seal and signatory, and leaves an edited one', async () => {
    await db().execute(sql`delete from print_templates`);
    const before = cleanTemplate('statement', STATEMENT_BEFORE);
    expect(RELEASED_STANDARD_HASHES.statement).toContain(templateHash(before));
    const edited = before.replace('保理商（盖章）：', '保理商（盖章）：本行');
    await db().execute(
      sql`insert into print_templates (biz_code, name, biz_type, content, state)
          values ('900000000021', '标准客户对账单', 'statement', ${before}, 'enabled'),
                 ('900000000022', '本行客户对账单', 'statement', ${edited}, 'disabled')`,
    );
    expect(await restart()).toEqual({ added: [], upgraded: ['900000000021'] });
    const rows = await templates();
    const current = cleanTemplate('statement', STANDARD_TEMPLATES.statement.content);
    expect(rows.find((r) => r.biz_code === '900000000021')!.content).toBe(current);
    expect(current).toContain('<td class="date">{{date}}</td>');
    expect(current).toContain('{{#companySeal}}');
    expect(current).toContain('签字：{{companySignatory}}');
    expect(rows.find((r) => r.biz_code === '900000000022')!.content).toBe(edited);
    expect(await restart()).toEqual(NOTHING);
    expect(await templates()).toEqual(rows);
  });
});
