import { sql } from 'drizzle-orm';
import { DEFAULT_CLASS_THRESHOLDS, type ClassThresholds } from '@portal/contract/classification';
import { DEFAULT_COLLECTION_SCHEDULE, type CollectionSchedule } from '@portal/contract/collections';
import {
  DEFAULT_GUARANTEE_WATCH,
  DEFAULT_PROVISION_RATES,
  PARAM_LABELS,
  type ParamKey,
  type SysParams,
} from '@portal/contract/sysparams';
import type { Config } from './config';
import type { ChangeFeed } from './db/change-feed';
import { queryRows, type Executor } from './db/client';

/** The change-feed topic of system_params (migrations/0025). */
export const PARAMS_TOPIC = 'params';

const MINUTE = 60_000;
const MB = 1024 * 1024;
const KEYS = Object.keys(PARAM_LABELS) as ParamKey[];

/** The 五级分类 thresholds in force (docs/classification.md "Proposal"). */
export function classThresholds(p: SysParams): ClassThresholds {
  return {
    watchMaxDays: p.classWatchMaxDays,
    substandardMaxDays: p.classSubstandardMaxDays,
    doubtfulMaxDays: p.classDoubtfulMaxDays,
  };
}

/** The 催收提醒 schedule in force (docs/collections.md "Reminders"). */
export function collectionSchedule(p: SysParams): CollectionSchedule {
  return {
    beforeDays: [p.collectBeforeFirstDays, p.collectBeforeLastDays],
    afterFirstDays: p.collectAfterFirstDays,
    afterEveryDays: p.collectAfterEveryDays,
  };
}

/** The 担保到期提醒 settings in force (docs/credit.md "Reminders"). */
export function guaranteeWatch(p: SysParams): { remindDays: number; valuationMaxDays: number } {
  return { remindDays: p.guaranteeRemindDays, valuationMaxDays: p.collateralValuationMaxDays };
}

/** The environment's values: what a database gets for a setting it has no row of yet. */
export function defaultParams(config: Config): SysParams {
  return {
    sessionIdleMinutes: Math.round(config.sessionIdleMs / MINUTE),
    sessionAbsoluteMinutes: Math.round(config.sessionAbsoluteMs / MINUTE),
    uploadLimitMb: Math.round(config.uploadLimitBytes / MB),
    companyName: config.companyName,
    companyAddress: config.companyAddress,
    companyRegNo: config.companyRegNo,
    companySeal: undefined,
    companySignatory: undefined,
    logRetentionDays: config.logRetentionDays,
    classWatchMaxDays: DEFAULT_CLASS_THRESHOLDS.watchMaxDays,
    classSubstandardMaxDays: DEFAULT_CLASS_THRESHOLDS.substandardMaxDays,
    classDoubtfulMaxDays: DEFAULT_CLASS_THRESHOLDS.doubtfulMaxDays,
    ...DEFAULT_PROVISION_RATES,
    collectBeforeFirstDays: DEFAULT_COLLECTION_SCHEDULE.beforeDays[0]!,
    collectBeforeLastDays: DEFAULT_COLLECTION_SCHEDULE.beforeDays[1]!,
    collectAfterFirstDays: DEFAULT_COLLECTION_SCHEDULE.afterFirstDays,
    collectAfterEveryDays: DEFAULT_COLLECTION_SCHEDULE.afterEveryDays,
    guaranteeRemindDays: DEFAULT_GUARANTEE_WATCH.remindDays,
    collateralValuationMaxDays: DEFAULT_GUARANTEE_WATCH.valuationMaxDays,
  };
}

const positiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/**
 * A stored value as this release reads it. The screen validates what it saves (its bounds); a row
 * written at first start from the environment may lie outside those bounds (a soak run's 2-minute
 * sessions) and is honoured all the same. A value of the wrong type keeps the default.
 */
function readValue<K extends ParamKey>(key: K, raw: unknown, fallback: SysParams[K]): SysParams[K] {
  const numeric =
    key === 'sessionIdleMinutes' ||
    key === 'sessionAbsoluteMinutes' ||
    key === 'uploadLimitMb' ||
    key === 'logRetentionDays' ||
    key === 'classWatchMaxDays' ||
    key === 'classSubstandardMaxDays' ||
    key === 'classDoubtfulMaxDays' ||
    key.startsWith('collect') ||
    key === 'guaranteeRemindDays' ||
    key === 'collateralValuationMaxDays';
  if (numeric) return (positiveInt(raw) ? raw : fallback) as SysParams[K];
  // A provision rate is a decimal string (a rate percent); anything else keeps the default.
  if (key.startsWith('provisionRate'))
    return (typeof raw === 'string' && /^\d{1,3}(\.\d{1,2})?$/.test(raw) ? raw : fallback) as SysParams[K];
  if (raw === null) return (key === 'companyName' ? fallback : undefined) as SysParams[K];
  return (typeof raw === 'string' && raw !== '' ? raw : fallback) as SysParams[K];
}

/**
 * 参数设置 as this server applies them (docs/operations.md "Settings an administrator changes").
 * The session and upload settings are written into the portal's own Config object, which every
 * reader consults at call time; the others are read from `current`. Reloaded on every notice of a
 * change (any server) and whenever notices may have been missed.
 */
export class LiveParams {
  current: SysParams;
  /** The environment's values, taken before any stored value is written into the Config. */
  private readonly defaults: SysParams;
  /** Counts loads: a load that a later one overtook is not applied. */
  private loads = 0;
  /** The latest load: an overtaken one waits for it, so that no caller returns before it. */
  private latest: Promise<void> = Promise.resolve();

  constructor(private readonly config: Config) {
    this.defaults = defaultParams(config);
    this.current = this.defaults;
  }

  /** Rows for settings the database has none of yet (first start, or a setting new in a release). */
  async seedDefaults(ex: Executor): Promise<void> {
    const defaults = this.defaults;
    // One statement, not one a setting (bench/README.md "Eleventh pass").
    const rows = KEYS.map((key) => sql`(${key}, ${JSON.stringify(defaults[key] ?? null)}::jsonb)`);
    await ex.execute(
      sql`insert into system_params (key, value) values ${sql.join(rows, sql`, `)} on conflict (key) do nothing`,
    );
  }

  /** The stored settings, without applying them (e.g. the values before a save, inside its transaction). */
  async read(ex: Executor): Promise<SysParams> {
    const rows = await queryRows<{ key: string; value: unknown }>(
      ex,
      sql`select key, value from system_params`,
    );
    const stored = new Map(rows.map((r) => [r.key, r.value]));
    const defaults = this.defaults;
    const next = { ...defaults };
    for (const key of KEYS) {
      if (!stored.has(key)) continue;
      (next as Record<ParamKey, unknown>)[key] = readValue(key, stored.get(key), defaults[key]);
    }
    return next;
  }

  /**
   * Reads and applies the stored settings. Loads run concurrently (a save's own, and one per change
   * notice): only the latest started applies what it read, and an overtaken one returns only once
   * the latest has applied, so a save's caller never sees the settings from before its save (a
   * notice arriving meanwhile used to leave the saving call answered with the old limit in force).
   */
  load(ex: Executor): Promise<void> {
    const load = ++this.loads;
    const done = (async () => {
      const next = await this.read(ex);
      if (load === this.loads) this.apply(next);
      else await this.latest.catch(() => undefined);
    })();
    this.latest = done;
    return done;
  }

  apply(p: SysParams): void {
    this.current = p;
    this.config.sessionIdleMs = p.sessionIdleMinutes * MINUTE;
    this.config.sessionAbsoluteMs = p.sessionAbsoluteMinutes * MINUTE;
    this.config.uploadLimitBytes = p.uploadLimitMb * MB;
  }

  /** Follows the stored values: on each notice of a change, and when notices may have been missed. */
  follow(changes: ChangeFeed, ex: Executor, onError: (err: unknown) => void): void {
    changes.on(PARAMS_TOPIC, () => void this.load(ex).catch(onError));
  }
}
