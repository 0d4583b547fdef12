/**
 * The business date (营业日, DOMAIN.md): a setting that defaults to today in Asia/Shanghai,
 * never the server's wall clock in its own zone. Tests set it.
 */
export interface BusinessClock {
  today(): string;
  set(date: string | undefined): void;
}

export function shanghaiToday(now = Date.now()): string {
  return new Date(now + 8 * 3600_000).toISOString().slice(0, 10);
}

export function createClock(fixed?: string): BusinessClock {
  let override = fixed;
  return {
    today: () => override ?? shanghaiToday(),
    set: (d) => {
      override = d;
    },
  };
}
