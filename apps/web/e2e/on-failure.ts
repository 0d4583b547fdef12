import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach } from 'vitest';
import { closedPages, livePages, server, shotPath } from './helpers';

/** The server's warnings and errors of the last `ms` (pino lines: level 40 and up), e.g. the watchdog's. */
function serverWarnings(ms: number): string {
  const path = server.log;
  if (!path || !existsSync(path)) return '(no server log)';
  const since = Date.now() - ms;
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => {
      try {
        const entry = JSON.parse(line) as { level?: number; time?: number };
        return (entry.level ?? 0) >= 40 && (entry.time ?? 0) >= since;
      } catch {
        return false;
      }
    });
  return lines.slice(-30).join('\n') || '(none)';
}

/**
 * When a browser test fails, every page it still has open is photographed and its timeline
 * printed, and so is the timeline of every page it closed (helpers.ts `recordTimeline`): a stall on a loaded CI machine is then read from the
 * report instead of guessed at.
 */
beforeEach(() => {
  closedPages.length = 0;
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail') return;
  closedPages.forEach((report, n) => console.error(`[failure] closed page ${n + 1}, ${report}`));
  const name = ctx.task.name.replace(/[^\p{L}\p{N}]+/gu, '-').slice(0, 60);
  let i = 0;
  for (const [page, timeline] of livePages) {
    i++;
    const shot = shotPath(`failure-${name}-${i}.png`);
    await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
    console.error(`[failure] page ${i} at ${page.url()} (${shot}):\n${timeline()}`);
  }
  console.error(`[failure] server warnings of the last 90 s:\n${serverWarnings(90_000)}`);
});
