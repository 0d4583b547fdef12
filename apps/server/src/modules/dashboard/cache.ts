import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../platform/db/client';
import type { ScopeUser } from '../../platform/auth/data-scope';

/**
 * Portfolio figures cached per widget, data scope and business date, valid while the portfolio
 * epoch (migrations/0010: bumped by every statement that writes contracts, plan items,
 * incomings or write-offs) is unchanged. The epoch is read before computing, so a figure is never
 * kept under an epoch newer than its data; MAX_AGE_MS bounds what a writer racing the read (its
 * bump seen before its commit) can leave stale.
 */
const MAX_AGE_MS = 30_000;
const MAX_ENTRIES = 500;

/** Users who see the same rows share an entry. */
export function scopeKey(user: ScopeUser): string {
  if (user.dataScope === 'all') return 'all';
  if (user.dataScope === 'self') return `self:${user.userId}`;
  return `${user.dataScope}:${user.deptId}:${user.userId}:${JSON.stringify(user.reach ?? null)}`;
}

/** One cache per portal (its own database). */
export function createPortfolioCache(ex: Executor) {
  const entries = new Map<string, { epoch: string; at: number; value: unknown }>();
  return async function cached<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const [row] = await queryRows<{ epoch: string }>(
      ex,
      sql`select last_value::text as epoch from portfolio_epoch`,
    );
    const epoch = row?.epoch ?? '';
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && hit.epoch === epoch && now - hit.at < MAX_AGE_MS) return hit.value as T;
    const value = await compute();
    entries.delete(key);
    entries.set(key, { epoch, at: now, value });
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    return value;
  };
}
