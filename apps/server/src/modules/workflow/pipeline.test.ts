import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { queryRows } from '../../platform/db/client';
import { badInput } from '../../platform/errors';
import { createTestPortal, type TestClient, type TestPortal } from '../../testing/harness';
import { saveDraft } from './pipeline';
import { WORKFLOW_REGISTRY } from './registry';
import { createUser, SAMPLE, SAMPLE_PATHS, sampleModule } from './testkit';

/**
 * The document pipeline owns the audit rows of a document's save and delete (docs/architecture.md
 * "The document pipeline"): the sample document's write and remove functions write none.
 */
let t: TestPortal;
let maker: TestClient;

beforeAll(async () => {
  t = await createTestPortal({}, [sampleModule]);
  await createUser(t.database.db, 'maker', '张经办', ['biz-manager']);
  maker = await t.login('maker');
});
afterAll(() => t.close());

const q = (code: string) => ({ query: { bizCode: code } });

async function audits(code: string) {
  return queryRows<{ action: string; actor: string; detail: unknown }>(
    t.database.db,
    sql`select action, actor_name as actor, detail from audit_log
         where entity = ${SAMPLE} and entity_code = ${code} and result = 'success' order by id`,
  );
}

describe('document pipeline', () => {
  it('writes the audit row of a save (with what the write says changed), a submission and a delete', async () => {
    const saved = await maker.ok<{ bizCode: string; version: number; state: string; flow: null }>(
      SAMPLE_PATHS.save,
      { title: '审计', amount: '12.50' },
    );
    expect(saved).toMatchObject({ version: 0, state: 'draft', flow: null });
    const code = saved.bizCode;
    expect(await audits(code)).toEqual([
      { action: 'create', actor: 'maker', detail: { title: '审计', amount: '12.50' } },
    ]);

    await maker.ok(SAMPLE_PATHS.save, { bizCode: code, title: '审计二', amount: '13.00' });
    const resubmitted = await maker.ok<{ state: string; flow: { state: string } }>(SAMPLE_PATHS.save, {
      bizCode: code,
      title: '审计三',
      amount: '13.00',
      submit: true,
    });
    expect(resubmitted).toMatchObject({ state: 'pending', flow: { state: 'pending' } });
    expect((await audits(code)).map((a) => [a.action, a.detail])).toEqual([
      ['create', { title: '审计', amount: '12.50' }],
      ['update', null],
      ['update', null],
      ['submit', expect.anything()],
    ]);

    // A refused save or delete (the document is pending) writes no success row.
    expect((await maker.call(SAMPLE_PATHS.save, { bizCode: code, title: 'x', amount: '1.00' })).status).toBe(
      409,
    );
    expect((await maker.call(SAMPLE_PATHS.del, undefined, q(code))).status).toBe(409);
    expect(await audits(code)).toHaveLength(4);

    const other = (await maker.ok<{ bizCode: string }>(SAMPLE_PATHS.save, { title: '删除', amount: '1.00' }))
      .bizCode;
    expect((await maker.call(SAMPLE_PATHS.del, undefined, q(other))).status).toBe(200);
    expect((await audits(other)).map((a) => a.action)).toEqual(['create', 'delete']);
  });

  it('registers the view route from the definition, in the same scope as the save', async () => {
    const { bizCode } = await maker.ok<{ bizCode: string }>(SAMPLE_PATHS.save, {
      title: '查看',
      amount: '2.00',
    });
    expect(await maker.ok(SAMPLE_PATHS.view, undefined, q(bizCode))).toMatchObject({
      bizCode,
      title: '查看',
      amount: '2.00',
      state: 'draft',
    });
    const missing = await maker.call(SAMPLE_PATHS.view, undefined, q('999999999999'));
    expect([missing.status, missing.msg]).toEqual([404, '样例单据不存在']);
  });

  it('a refused submission rolls back the write and its audit row', async () => {
    let written = '';
    const refused = t.database.db.transaction((tx) =>
      saveDraft(tx, t.portal.registries.get(WORKFLOW_REGISTRY), {
        type: SAMPLE,
        actor: SYSTEM_ACTOR,
        write: async () => {
          written = 'SAMPLE-ROLLBACK';
          await tx.execute(
            sql`insert into sample_docs (biz_code, title, amount) values (${written}, '回滚', 1)`,
          );
          return written;
        },
        submission: async () => {
          throw badInput('摘要不能为空');
        },
      }),
    );
    await expect(refused).rejects.toThrow('摘要不能为空');
    expect(written).toBe('SAMPLE-ROLLBACK');
    const [left] = await queryRows<{ docs: number }>(
      t.database.db,
      sql`select count(*)::int as docs from sample_docs where biz_code = ${written}`,
    );
    expect(left!.docs).toBe(0);
    expect(await audits(written)).toEqual([]);
  });
});
