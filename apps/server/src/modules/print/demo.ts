import { BIZ_TYPES } from '@portal/contract/print';
import type { SeedContext } from '../../platform/module';
import { nextCode } from '../../platform/db/codes';
import { printTemplates } from './schema';
import { cleanTemplate } from './service';
import { STANDARD_TEMPLATES } from './standard-templates';

/** The standard templates, enabled, so every document prints out of the box. */
export async function seedDemoTemplates({ db }: SeedContext): Promise<void> {
  await db.transaction(async (tx) => {
    for (const bizType of BIZ_TYPES) {
      const t = STANDARD_TEMPLATES[bizType];
      await tx.insert(printTemplates).values({
        bizCode: await nextCode(tx, 'print'),
        name: t.name,
        bizType,
        content: cleanTemplate(bizType, t.content),
        state: 'enabled',
      });
    }
  });
}
