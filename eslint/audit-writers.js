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
  // Not converted yet (measured remainder in docs/architecture.md "The command path").
  'modules/auth/routes.ts': 'not converted yet',
  'modules/auth/service.ts': 'not converted yet',
  'modules/bizdate/service.ts': 'not converted yet',
  'modules/classification/service.ts': 'not converted yet',
  'modules/jobs/scheduler.ts': 'not converted yet',
  'modules/monitor/retention.ts': 'not converted yet',
  'modules/monitor/service.ts': 'not converted yet',
  'modules/permit/service.ts': 'not converted yet',
  'modules/system/params.ts': 'not converted yet',
  'modules/voucher/close.ts': 'not converted yet',
  'modules/voucher/package-export.ts': 'not converted yet',
  'modules/voucher/service.ts': 'not converted yet',
};
