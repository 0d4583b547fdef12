import { sql } from 'drizzle-orm';
import { bigint, customType, date, integer, numeric, text } from 'drizzle-orm/pg-core';

/**
 * Timestamps are ISO-8601 with offset (docs/protocol.md "Values on the wire"). PostgreSQL's text form
 * ("2026-11-23 01:10:02.633+00") is not, so the value is normalised as it leaves the driver
 * ("2026-11-23T01:10:02.633+00:00"); PGlite may hand over a Date instead.
 */
export function toIsoTimestamp(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  const s = String(value);
  return s.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
}

export const timestamptz = customType<{ data: string; driverData: string | Date }>({
  dataType: () => 'timestamp with time zone',
  fromDriver: toIsoTimestamp,
});

/**
 * created/updated at/by and version: every editable table has them (docs/architecture.md "Tables and the
 * audit log").
 */
export const auditColumns = {
  createdAt: timestamptz('created_at')
    .notNull()
    .default(sql`now()`),
  createdBy: bigint('created_by', { mode: 'number' }),
  updatedAt: timestamptz('updated_at')
    .notNull()
    .default(sql`now()`),
  updatedBy: bigint('updated_by', { mode: 'number' }),
  version: integer('version').notNull().default(0),
};

export const softDelete = {
  deletedAt: timestamptz('deleted_at'),
};

/** Money: NUMERIC(18,2), read and written as a decimal string. */
export const moneyColumn = (name: string) => numeric(name, { precision: 18, scale: 2 });

/** A calendar date as 'YYYY-MM-DD'. */
export const dateColumn = (name: string) => date(name, { mode: 'string' });

/**
 * A document fixing what a contract's plan owes on a date (回购单, 核销坏账): each part and the total
 * (migrations 0055, 0061).
 */
export const quoteParts = {
  principal: moneyColumn('principal').notNull(),
  interest: moneyColumn('interest').notNull(),
  fee: moneyColumn('fee').notNull(),
  penalty: moneyColumn('penalty').notNull(),
  amount: moneyColumn('amount').notNull(),
};

/** The 冲红 of an approved document done in place (red_state, its reason, when and who). */
export const redColumns = {
  redState: text('red_state').notNull().default('none'),
  redReason: text('red_reason'),
  redAt: timestamptz('red_at'),
  redBy: bigint('red_by', { mode: 'number' }),
};

/**
 * The values a 冲红 done in place sets (redColumns); the command's `w.touch` adds the version and
 * the update stamps (docs/architecture.md "The command path").
 */
export const reversedBy = (reason: string, userId: number) => ({
  redState: 'reversed',
  redReason: reason,
  redAt: sql`now()`,
  redBy: userId,
});

/**
 * A workflow document's own state (workflow/README.md): draft → pending → approved | rejected,
 * with the submission and final-approval stamps (`stamps: true`).
 */
export const docStateColumns = {
  state: text('state').notNull().default('draft'),
  submittedAt: timestamptz('submitted_at'),
  submittedBy: bigint('submitted_by', { mode: 'number' }),
  approvedAt: timestamptz('approved_at'),
  approvedBy: bigint('approved_by', { mode: 'number' }),
};

/**
 * The organisation a row belongs to for data scope (migrations/0020): the maker's for documents,
 * the managing one for customers and their accounts. The database stamps it on insert.
 */
export const makerOrg = {
  orgId: bigint('org_id', { mode: 'number' }),
};
