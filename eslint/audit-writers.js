/**
 * The files of apps/server/src that may still call `writeAudit` themselves instead of going through
 * the command path (platform/db/command.ts, docs/architecture.md "The command path"). The rule in
 * eslint/audit-writes.js refuses the call anywhere else, and test/audit-writes.test.ts refuses an
 * entry here whose file calls it no more, so the list only shrinks.
 */
export const AUDIT_WRITERS = {
  // The path itself, and the one row that is no write: a refused call's `failure` row, written
  // after its transaction rolled back (docs/operations.md "操作日志 result").
  'platform/db/command.ts': 'the command path',
  'platform/http/app.ts': 'a refused call’s failure row',
};
