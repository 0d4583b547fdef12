import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIZ_TYPES } from '@portal/contract/print';
import { queryRows } from '../../platform/db/client';
import { createTestPortal, type TestPortal } from '../../testing/harness';
import { seedStandardTemplates, STANDARD_TEMPLATES_KEY } from './seed';
import { printingTemplate } from './service';
import { STANDARD_TEMPLATES } from './standard-templates';

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
    expect(await restart()).toEqual([]);
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
    expect(await restart()).toEqual([]);
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
    const added = await restart();
    expect(added).toEqual(BIZ_TYPES.filter((b) => b !== 'contract' && b !== 'writeOff'));
    const rows = await templates();
    expect(rows.filter((r) => r.biz_type === 'contract').map((r) => r.name)).toEqual(['本行保理合同']);
    expect(rows.filter((r) => r.biz_type === 'writeOff').map((r) => [r.name, r.state])).toEqual([
      ['本行核销单', 'disabled'],
    ]);
    expect((await printingTemplate(db(), 'loan', null, undefined)).name).toBe('标准放款通知书');
    expect(await provided()).toBe(BIZ_TYPES.join(','));
    // And once more: nothing.
    expect(await restart()).toEqual([]);
    expect(await templates()).toEqual(rows);
  });
});
