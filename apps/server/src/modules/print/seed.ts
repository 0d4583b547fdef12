import { and, eq, isNull, sql } from 'drizzle-orm';
import { BIZ_TYPES, type BizType } from '@portal/contract/print';
import type { SeedContext } from '../../platform/module';
import { advisoryXactLock } from '../../platform/db/advisory';
import { queryRows } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { printTemplates } from './schema';
import { cleanTemplate } from './service';
import { STANDARD_TEMPLATES } from './standard-templates';

/** portal_settings row listing the business types whose standard template has been provided. */
export const STANDARD_TEMPLATES_KEY = 'standard_print_templates';

/**
 * Reference data (every start, every database, demo or not): each business type gets the
 * standard template, enabled, once — so an office upgraded to a release with a new document type
 * (放款通知书) prints it out of the box. A type is provided only when the database holds no
 * template of it at all; either way it is then recorded in `STANDARD_TEMPLATES_KEY`, so a later
 * start never inserts it again: an office's own templates, its edits of the standard one, and a
 * standard one it deleted are left as they are. Servers starting together queue on a lock.
 */
export async function seedStandardTemplates({ db }: Pick<SeedContext, 'db'>): Promise<BizType[]> {
  return db.transaction(async (tx) => {
    await advisoryXactLock(tx, 'print', STANDARD_TEMPLATES_KEY);
    const [row] = await queryRows<{ value: string }>(
      tx,
      sql`select value from portal_settings where key = ${STANDARD_TEMPLATES_KEY}`,
    );
    const done = new Set(row ? row.value.split(',') : []);
    const todo = BIZ_TYPES.filter((t) => !done.has(t));
    if (todo.length === 0) return [];
    const added: BizType[] = [];
    for (const bizType of todo) {
      const [has] = await tx
        .select({ id: printTemplates.id })
        .from(printTemplates)
        .where(and(eq(printTemplates.bizType, bizType), isNull(printTemplates.deletedAt)))
        .limit(1);
      if (!has) {
        const t = STANDARD_TEMPLATES[bizType];
        await tx.insert(printTemplates).values({
          bizCode: await nextCode(tx, 'print'),
          name: t.name,
          bizType,
          content: cleanTemplate(bizType, t.content),
          state: 'enabled',
        });
        added.push(bizType);
      }
      done.add(bizType);
    }
    const value = BIZ_TYPES.filter((t) => done.has(t)).join(',');
    await tx.execute(sql`insert into portal_settings (key, value, updated_at) values (${STANDARD_TEMPLATES_KEY}, ${value}, now())
      on conflict (key) do update set value = excluded.value, updated_at = now()`);
    return added;
  });
}
