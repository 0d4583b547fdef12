import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { metricsText } from '../metrics';

/** Outside the API and its envelope (docs/operations.md "Health, readiness, metrics"). */
export const HEALTH_PATHS = { health: '/healthz', ready: '/readyz', metrics: '/metrics' } as const;

/** The answer to a call that reaches a draining server: the proxy passes it to another server. */
export const DRAINING_MESSAGE = '服务正在重启，请稍后重试';

/** A readiness check that takes longer than this answers 503: the database is not usable now. */
const READY_CHECK_MS = 2_000;

/**
 * Whether this server takes new calls. On SIGTERM it drains: /readyz answers 503, new calls answer
 * 503 with `connection: close` (a proxy sends them to another server), the calls in flight finish.
 */
export class Readiness {
  private drainingSince: number | undefined;

  drain(): void {
    this.drainingSince ??= Date.now();
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** Whether a call is refused for draining: every call but the probes and /metrics. */
  refuses(url: string): boolean {
    if (!this.draining) return false;
    const path = url.split('?')[0];
    return path !== HEALTH_PATHS.health && path !== HEALTH_PATHS.ready && path !== HEALTH_PATHS.metrics;
  }
}

function plain(reply: FastifyReply, status: number, text: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send(`${text}\n`);
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Whether `Authorization: Bearer <token>` names the token, compared in constant time. */
function bearerIs(req: FastifyRequest, token: string): boolean {
  const m = /^Bearer\s+(\S+)$/.exec(req.headers.authorization ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!);
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

export interface HealthOptions {
  db: Db;
  readiness: Readiness;
  /** The last migration this server knows; the database must have it applied. */
  lastMigration: string;
  /** METRICS_TOKEN: /metrics answers only with it; unset, /metrics is not served (404). */
  metricsToken: string | undefined;
}

/**
 * /healthz (the process answers), /readyz (the database answers, holds this release's migrations,
 * and the server is not draining) and /metrics (Prometheus text, behind METRICS_TOKEN). Cheap
 * enough to be polled every second: /readyz runs one indexed query.
 */
export function installHealth(app: FastifyInstance, opts: HealthOptions): void {
  // Draining, every answer closes its connection (a proxy's kept-alive one too), so the calls in
  // flight end with their sockets and the process can exit.
  app.addHook('onSend', async (_req, reply) => {
    if (opts.readiness.draining) void reply.header('connection', 'close');
  });
  app.get(HEALTH_PATHS.health, async (_req, reply) => plain(reply, 200, 'ok'));

  app.get(HEALTH_PATHS.ready, async (req, reply) => {
    if (opts.readiness.draining) return plain(reply, 503, 'draining');
    try {
      const rows = await withTimeout(
        queryRows<{ last: string | null }>(opts.db, sql`select max(name) as last from schema_migrations`),
        READY_CHECK_MS,
      );
      const last = rows[0]?.last ?? null;
      if (last === null || last < opts.lastMigration) {
        return plain(reply, 503, `migrations pending (database at ${last ?? 'none'})`);
      }
    } catch (err) {
      req.log.warn({ err }, 'readiness: the database did not answer');
      return plain(reply, 503, 'database unreachable');
    }
    return plain(reply, 200, 'ready');
  });

  app.get(HEALTH_PATHS.metrics, async (req, reply) => {
    const token = opts.metricsToken;
    if (!token) return plain(reply, 404, 'metrics are off (set METRICS_TOKEN)');
    if (!bearerIs(req, token)) return plain(reply, 401, 'metrics need the METRICS_TOKEN bearer');
    const { contentType, body } = await metricsText();
    return reply.code(200).header('cache-control', 'no-store').type(contentType).send(body);
  });
}
