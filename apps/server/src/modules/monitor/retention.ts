import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../platform/db/client';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';

export interface PurgeCounts {
  operLogs: number;
  loginLogs: number;
}

/**
 * The day-end's purge of 操作日志 and 登录日志 (docs/operations.md "Log retention"): rows written
 * more than `days` days before now are deleted, none younger. The age is the server clock's, not
 * the business date's: retention is about how long a record is kept, whatever day the book is on.
 * The purge itself leaves an audit row (who purged what, up to when), so the log says it was cut.
 */
export async function purgeLogs(db: Db, days: number): Promise<PurgeCounts> {
  if (!Number.isInteger(days) || days < 1)
    throw new Error(`log retention must be a positive number of days, got ${days}`);
  return runCommand(db, SYSTEM_ACTOR, { entity: 'system', action: 'purgeLogs' }, async (tx, w) => {
    const [cut] = await queryRows<{ before: string }>(
      tx,
      sql`select (now() - make_interval(days => ${days}))::text as before`,
    );
    const before = cut!.before;
    const oper = await queryRows<{ id: number }>(
      tx,
      sql`delete from audit_log where at < ${before}::timestamptz returning id`,
    );
    const login = await queryRows<{ id: number }>(
      tx,
      sql`delete from login_attempts where at < ${before}::timestamptz returning id`,
    );
    const counts = { operLogs: oper.length, loginLogs: login.length };
    if (counts.operLogs + counts.loginLogs === 0) w.unchanged();
    else
      await w.audit({ detail: { retentionDays: days, cutoff: new Date(before).toISOString(), ...counts } });
    return counts;
  });
}
