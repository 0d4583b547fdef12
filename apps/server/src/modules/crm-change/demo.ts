import { sql } from 'drizzle-orm';
import type { SeedContext } from '../../platform/module';
import { queryRows } from '../../platform/db/client';
import { addDemoManager } from '../crm';

/**
 * Demo data (fresh database only): the first demo customer gets an administrator, so 管理员变更
 * has someone to replace. Skipped when the customer already has one (the CRM demo may add it).
 */
export async function seedDemoManager({ db, log }: SeedContext): Promise<void> {
  const [c] = await queryRows<{ comp_code: string }>(
    db,
    sql`select comp_code from companies c where deleted_at is null
          and not exists (select 1 from comp_users u where u.comp_code = c.comp_code and u.is_manager and u.deleted_at is null)
        order by id limit 1`,
  );
  if (!c) return;
  await addDemoManager(db, c.comp_code);
  log('demo: customer administrator added');
}
