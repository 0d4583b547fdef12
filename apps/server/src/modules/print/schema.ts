import { bigserial, char, pgTable, text } from 'drizzle-orm/pg-core';
import { auditColumns, softDelete } from '../../platform/db/columns';

export const printTemplates = pgTable('print_templates', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  name: text('name').notNull(),
  bizType: text('biz_type').notNull(),
  coreCompCode: char('core_comp_code', { length: 12 }),
  content: text('content').notNull(),
  state: text('state').notNull().default('disabled'),
  remark: text('remark'),
  ...auditColumns,
  ...softDelete,
});
