import { bigserial, char, jsonb, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { auditColumns, softDelete } from '../../platform/db/columns';

export const interestRules = pgTable('interest_rules', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  name: text('name').notNull(),
  contBizCode: char('cont_biz_code', { length: 12 }),
  calc: jsonb('calc').notNull(),
  annualRate: numeric('annual_rate', { precision: 12, scale: 8 }).notNull(),
  method: text('method').notNull(),
  state: text('state').notNull().default('enabled'),
  remark: text('remark'),
  ...auditColumns,
  ...softDelete,
});
