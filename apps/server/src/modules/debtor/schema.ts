import { sql } from 'drizzle-orm';
import { bigint, bigserial, char, pgTable, text } from 'drizzle-orm/pg-core';
import { auditColumns, dateColumn, moneyColumn, timestamptz } from '../../platform/db/columns';

/** Drizzle mirror of migrations/0054_debtor.sql (the SQL file is the source of truth). */
export const debtorLines = pgTable('debtor_lines', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  bizCode: char('biz_code', { length: 12 }).notNull(),
  debtorCode: char('debtor_code', { length: 12 }).notNull(),
  debtorName: text('debtor_name').notNull(),
  state: text('state').notNull().default('pending'),
  limitAmount: moneyColumn('limit_amount').notNull().default('0'),
  occupiedAmount: moneyColumn('occupied_amount').notNull().default('0'),
  pendingLimit: moneyColumn('pending_limit'),
  pendingRemark: text('pending_remark'),
  pendingBy: bigint('pending_by', { mode: 'number' }),
  pendingByName: text('pending_by_name'),
  pendingAt: timestamptz('pending_at'),
  ...auditColumns,
});

/** One movement of a debtor line: per line occupied = Σ occupy − Σ release. */
export const debtorLedger = pgTable('debtor_ledger', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  lineId: bigint('line_id', { mode: 'number' }).notNull(),
  movement: text('movement').notNull(),
  amount: moneyColumn('amount').notNull(),
  limitAfter: moneyColumn('limit_after').notNull(),
  occupiedAfter: moneyColumn('occupied_after').notNull(),
  contractId: bigint('contract_id', { mode: 'number' }),
  docType: text('doc_type').notNull(),
  docCode: text('doc_code').notNull(),
  reason: text('reason'),
  bizDate: dateColumn('biz_date').notNull(),
  actorId: bigint('actor_id', { mode: 'number' }),
  actorName: text('actor_name'),
  at: timestamptz('at')
    .notNull()
    .default(sql`now()`),
});
