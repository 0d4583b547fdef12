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
    expect(rows.filter((r) => r.biz_code !== '900000000011')).toEqual(untouched);
    // Once upgraded, it is the current text: a later start changes nothing.
    expect(await restart()).toEqual(NOTHING);
    expect(await templates()).toEqual(rows);
  });
});
