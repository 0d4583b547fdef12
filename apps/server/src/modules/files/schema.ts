import { bigint, bigserial, char, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const files = pgTable('files', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  fileToken: text('file_token').notNull(),
  storageKey: text('storage_key').notNull(),
  originalName: text('original_name').notNull(),
  mime: text('mime').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  sha256: char('sha256', { length: 64 }).notNull(),
  uploadedBy: bigint('uploaded_by', { mode: 'number' }),
  uploadedByName: text('uploaded_by_name').notNull(),
  docType: text('doc_type'),
  docCode: text('doc_code'),
  attachedAt: timestamp('attached_at', { withTimezone: true, mode: 'string' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'string' }),
});

export const fileDownloadTokens = pgTable('file_download_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  fileId: bigint('file_id', { mode: 'number' }).notNull(),
  userId: bigint('user_id', { mode: 'number' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'string' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'string' }),
});
