import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { BIZ_TYPES, type BizType } from '@portal/contract/print';
import type { SeedContext } from '../../platform/module';
import { advisoryXactLock } from '../../platform/db/advisory';
import { queryRows, type Tx } from '../../platform/db/client';
import { nextCode } from '../../platform/db/codes';
import { printTemplates } from './schema';
import { cleanTemplate } from './service';
import { RELEASED_STANDARD_HASHES, STANDARD_TEMPLATES, templateHash } from './standard-templates';

/** portal_settings row listing the business types whose standard template has been provided. */
export const STANDARD_TEMPLATES_KEY = 'standard_print_templates';

/** What a start did to the standard templates. */
export interface SeedResult {
  /** Types given the standard template (they had none). */
  added: BizType[];
  /** Codes of unedited templates brought to the current standard text. */
  upgraded: string[];
}

/**
 * Reference data (every start, every database, demo or not), in one transaction; servers starting
 * together queue on a lock.
 *
 * - Each business type gets the standard template, enabled, once — so an office upgraded to a
 *   release with a new document type (放款通知书) prints it out of the box. A type is provided only
 *   when the database holds no template of it at all; either way it is then recorded in
 *   `STANDARD_TEMPLATES_KEY`, so a later start never inserts it again: an office's own templates
 *   and a standard one it deleted stay as they are.
 * - A template whose body is still, to the character, the standard text of an earlier release
 *   (RELEASED_STANDARD_HASHES) is unedited: it takes the current standard text, so new columns
 *   reach the office. Any other body, an edited standard one included, is left alone
 *   (docs/operations.md "Upgrading").
 */
export async function seedStandardTemplates({ db }: Pick<SeedContext, 'db'>): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    await advisoryXactLock(tx, 'print', STANDARD_TEMPLATES_KEY);
    const upgraded = await upgradeUnedited(tx);
    const [row] = await queryRows<{ value: string }>(
      tx,
      sql`select value from portal_settings where key = ${STANDARD_TEMPLATES_KEY}`,
    );
    const done = new Set(row ? row.value.split(',') : []);
    const todo = BIZ_TYPES.filter((t) => !done.has(t));
    if (todo.length === 0) return { added: [], upgraded };
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
    return { added, upgraded };
  });
}

/**
 * Brings every live template still holding an earlier standard text to the current one. The
 * update is guarded on the body read, so an edit saved meanwhile is never overwritten.
 */
async function upgradeUnedited(tx: Tx): Promise<string[]> {
  const rows = await tx
    .select({
      id: printTemplates.id,
      bizCode: printTemplates.bizCode,
      bizType: printTemplates.bizType,
      content: printTemplates.content,
    })
    .from(printTemplates)
    .where(isNull(printTemplates.deletedAt))
    .orderBy(asc(printTemplates.id));
  const upgraded: string[] = [];
  for (const r of rows) {
    const released = RELEASED_STANDARD_HASHES[r.bizType as BizType];
    if (!released) continue;
    const current = cleanTemplate(r.bizType as BizType, STANDARD_TEMPLATES[r.bizType as BizType].content);
    const hash = templateHash(r.content);
    if (r.content === current || !released.includes(hash)) continue;
    const done = await tx
      .update(printTemplates)
      .set({ content: current, version: sql`${printTemplates.version} + 1`, updatedAt: sql`now()` })
      .where(and(eq(printTemplates.id, r.id), eq(printTemplates.content, r.content)))
      .returning({ id: printTemplates.id });
    if (done.length) upgraded.push(r.bizCode);
  }
  return upgraded;
}
