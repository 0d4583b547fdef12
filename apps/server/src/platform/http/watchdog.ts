import type { FastifyInstance } from 'fastify';
import type { InFlightQueries } from '../db/in-flight';

/** A call still unanswered after this long is logged (a user would call it a stall). */
export const SLOW_REQUEST_MS = 10_000;
/** The event loop blocked longer than this (every call waits behind it) is logged. */
export const EVENT_LOOP_BLOCK_MS = 1_000;
const CHECK_MS = 500;

/**
 * Logs what a user would see as a hang, with what the server was doing at that moment: a request
 * older than SLOW_REQUEST_MS (once, with its requestId and the SQL in flight), and a blocked
 * event loop (synchronous work: PGlite runs its queries on this thread). docs/operations.md says
 * how to read these lines.
 */
export function installWatchdog(app: FastifyInstance, inFlight: InFlightQueries): void {
  const open = new Map<string, { started: number; method: string; url: string; reported: boolean }>();
  app.addHook('onRequest', async (req) => {
    open.set(req.id, {
      started: Date.now(),
      method: req.method,
      url: req.url.split('?')[0]!,
      reported: false,
    });
  });
  const close = async (req: { id: string }) => {
    open.delete(req.id);
  };
  app.addHook('onResponse', close);
  app.addHook('onRequestAbort', close);

  let last = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    const blocked = now - last - CHECK_MS;
    last = now;
    if (blocked > EVENT_LOOP_BLOCK_MS) {
      app.log.warn({ blockedMs: blocked, sql: inFlight.list(now) }, 'event loop blocked');
    }
    for (const [requestId, r] of open) {
      if (r.reported || now - r.started < SLOW_REQUEST_MS) continue;
      r.reported = true;
      app.log.warn(
        { requestId, method: r.method, url: r.url, ageMs: now - r.started, sql: inFlight.list(now) },
        'request still unanswered',
      );
    }
  }, CHECK_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
