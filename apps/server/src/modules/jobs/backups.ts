import { existsSync, mkdirSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../platform/config';
import type { Database } from '../../platform/db/client';
import { kindOf } from '../../platform/backup';

/**
 * The scheduled backup (docs/operations.md "Scheduled jobs"). The embedded database is dumped while
 * it runs into DATA_DIR/backups, one file per run (portal-YYYYMMDD-HHmmssSSS.tar.gz, the format
 * `npm run restore` reads), keeping the newest BACKUP_KEEP. On PostgreSQL the dump is the
 * operator's pg_dump on its own schedule (cron running `npm run backup`, which writes the custom
 * format into the same folder); this job checks that its newest dump is there and recent enough.
 */
export const backupDir = (config: Config) => join(config.dataDir, 'backups');

const PGLITE_DUMP = /^portal-\d{8}-\d{9}\.tar\.gz$/;

function stamp(d: Date): string {
  // The office's wall clock (Asia/Shanghai), as the schedule reads it.
  const s = new Date(d.getTime() + 8 * 3600_000).toISOString();
  return `${s.slice(0, 10).replaceAll('-', '')}-${s.slice(11, 23).replace(/[:.]/g, '')}`;
}

/** Dumps the embedded database and deletes the dumps beyond the newest `config.backupKeep`. */
export async function dumpEmbedded(database: Database, config: Config, now = new Date()): Promise<string> {
  if (!database.dumpDataDir) throw new Error('the embedded database cannot be dumped here');
  const dir = backupDir(config);
  mkdirSync(dir, { recursive: true });
  const name = `portal-${stamp(now)}.tar.gz`;
  const file = join(dir, name);
  const blob = await database.dumpDataDir();
  const tmp = `${file}.partial`;
  writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()), { mode: 0o600 });
  renameSync(tmp, file);
  // The names sort by time: the oldest go first.
  const dumps = readdirSync(dir)
    .filter((f) => PGLITE_DUMP.test(f))
    .sort();
  const removed = dumps.slice(0, Math.max(0, dumps.length - config.backupKeep));
  for (const f of removed) unlinkSync(join(dir, f));
  const kb = Math.ceil(statSync(file).size / 1024);
  return `已备份到 ${file}（${kb} KB），保留最近${config.backupKeep}份${removed.length ? `，删除${removed.length}份旧备份` : ''}`;
}

/** On PostgreSQL: the newest pg_dump (custom format) in DATA_DIR/backups is younger than the limit. */
export function checkPgDump(config: Config, now = Date.now()): string {
  const dir = backupDir(config);
  if (!existsSync(dir)) throw new Error(`备份目录 ${dir} 不存在，请按运维文档配置每日 pg_dump 备份`);
  const dumps = readdirSync(dir)
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile() && kindOf(f) === 'postgres')
    .map((f) => ({ f, at: statSync(f).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  const newest = dumps[0];
  if (!newest) throw new Error(`${dir} 中没有 pg_dump 备份，请按运维文档配置每日备份`);
  const hours = (now - newest.at) / 3600_000;
  if (hours > config.backupMaxAgeHours)
    throw new Error(
      `最新的备份 ${newest.f} 已是${Math.floor(hours)}小时前的（超过${config.backupMaxAgeHours}小时），请检查每日备份`,
    );
  return `最新的备份 ${newest.f}，${Math.floor(hours * 60)}分钟前`;
}
