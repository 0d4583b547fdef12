import { sql } from 'drizzle-orm';
import type { JobCode } from '@portal/contract/jobs';
import type { ModuleContext } from '../../platform/module';
import { queryRows } from '../../platform/db/client';
import { advisoryXactLock } from '../../platform/db/advisory';
import { SYSTEM_ACTOR } from '../../platform/db/audit';
import { classThresholds, collectionSchedule, guaranteeWatch } from '../../platform/params';
import { scheduledDayEnd } from '../bizdate';
import { accrueMonthEnds } from '../voucher';
import { purgeLogs } from '../monitor';
import type { Progress } from '../../platform/progress';
import { checkPgDump, dumpEmbedded } from './backups';

/** What a job may use: the portal's shared services. */
export type JobContext = Pick<ModuleContext, 'db' | 'database' | 'config' | 'clock' | 'params' | 'keyring'>;

export interface JobDef {
  code: JobCode;
  /** The built-in schedule (Asia/Shanghai); an administrator may change it on 定时任务. */
  defaultCron: string;
  description: string;
  /**
   * Does the work; answers what it did, in words. A thrown error makes the run 失败. `progress`
   * writes how far it is into the run's row (docs/business-date.md "Progress").
   */
  run(ctx: JobContext, progress: Progress): Promise<string>;
}

/** Sessions ended (expired or signed out) this long ago are deleted by 会话清理. */
const SESSION_KEEP_DAYS = 7;

/** Every job the server runs (docs/operations.md "Scheduled jobs"), in JOB_CODES order. */
export const JOB_DEFS: readonly JobDef[] = [
  {
    code: 'dayEnd',
    defaultCron: '1 0 * * *',
    description: '营业日跟随日历时，运行上次完成的日终之后每一天的日终（补跑错过的日期）',
    async run({ db, clock, params }, progress) {
      const { runs, skipped } = await scheduledDayEnd(db, clock, SYSTEM_ACTOR, {
        classThresholds: classThresholds(params.current),
        collectionSchedule: collectionSchedule(params.current),
        guaranteeWatch: guaranteeWatch(params.current),
        // The job's row shows the progress of the day-end it is running.
        progress: { onWrite: (p) => progress.show(p) },
      });
      if (skipped) return skipped;
      const last = runs.at(-1)!;
      if (last.state === 'failed') throw new Error(`${last.businessDate} 的日终失败：${last.error ?? ''}`);
      return `运行${runs.length}天日终（${runs[0]!.businessDate} 至 ${last.businessDate}）`;
    },
  },
  {
    code: 'monthEndAccrual',
    defaultCron: '30 0 1 * *',
    description: '补记营业日之前尚未计提的月末利息计提与预收利息摊销（日终已做的月份不重复）',
    async run({ db, clock }, progress) {
      await progress.phase('waiting', 0, clock.today());
      const months = await db.transaction(async (tx) => {
        // The day-end's own lock: the accrual never interleaves with a day-end's.
        await advisoryXactLock(tx, 'dayEnd', 'run');
        return accrueMonthEnds(tx, clock.today(), SYSTEM_ACTOR, progress);
      });
      return months === 0 ? '没有待计提的月份' : `计提${months}个月`;
    },
  },
  {
    code: 'logPurge',
    defaultCron: '0 3 * * *',
    description: '删除超过参数设置中日志保留天数的操作日志、登录日志和定时任务运行记录',
    async run({ db, params }) {
      const days = params.current.logRetentionDays;
      const counts = await purgeLogs(db, days);
      const runs = await queryRows<{ id: number }>(
        db,
        sql`delete from job_runs where started_at < now() - make_interval(days => ${days}) returning id`,
      );
      return `删除操作日志${counts.operLogs}条、登录日志${counts.loginLogs}条、任务记录${runs.length}条（保留${days}天）`;
    },
  },
  {
    code: 'backup',
    defaultCron: '0 2 * * *',
    description: '内置数据库：备份到数据目录的 backups 并轮换；PostgreSQL：检查每日 pg_dump 备份是否按时生成',
    async run({ database, config }) {
      return database.kind === 'pglite' ? dumpEmbedded(database, config) : checkPgDump(config);
    },
  },
  {
    code: 'keyRotation',
    defaultCron: '*/10 * * * *',
    description: '报文加密密钥到期时生成新密钥（上一把密钥再接受一个周期）',
    async run({ keyring }) {
      const before = keyring.publicKey().keyId;
      await keyring.rotateIfDue();
      const after = keyring.publicKey().keyId;
      return before === after ? '密钥未到轮换时间' : `已轮换密钥 ${after}`;
    },
  },
  {
    code: 'sessionCleanup',
    defaultCron: '30 3 * * *',
    description: `删除已过期或已注销超过${SESSION_KEEP_DAYS}天的登录会话`,
    async run({ db }) {
      const gone = await queryRows<{ id: number }>(
        db,
        sql`delete from sessions
             where expires_at < now() - make_interval(days => ${SESSION_KEEP_DAYS})
                or revoked_at < now() - make_interval(days => ${SESSION_KEEP_DAYS})
         returning id`,
      );
      return `删除${gone.length}个会话`;
    },
  },
];
