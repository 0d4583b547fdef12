/**
 * The business date (营业日, docs/business-date.md): a setting that defaults to today in Asia/Shanghai,
 * never the server's wall clock in its own zone. Tests set it.
 *
 * Three layers, the first present wins:
 * 1. `set(date)`: a test's override, in this process only;
 * 2. the stored business date (`portal_settings.business_date`), set on the 营业日 screen and
 *    shared by every server through the database (`setStored`, kept current by the bizdate module);
 * 3. the start-up setting `BUSINESS_DATE`, else today in Asia/Shanghai.
 */
export interface BusinessClock {
  today(): string;
  set(date: string | undefined): void;
  /** The stored business date as last read from the database (undefined: none stored). */
  setStored(date: string | undefined): void;
  /** Where today() comes from. */
  source(): 'override' | 'stored' | 'setting' | 'calendar';
}

export function shanghaiToday(now = Date.now()): string {
  return new Date(now + 8 * 3600_000).toISOString().slice(0, 10);
}

export function createClock(fixed?: string): BusinessClock {
  let override: string | undefined;
  let stored: string | undefined;
  return {
    today: () => override ?? stored ?? fixed ?? shanghaiToday(),
    set: (d) => {
      override = d;
    },
    setStored: (d) => {
      stored = d;
    },
    source: () => (override ? 'override' : stored ? 'stored' : fixed ? 'setting' : 'calendar'),
  };
}
