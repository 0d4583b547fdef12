import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { API_PREFIX, STATUS, type ApiResponse } from '@portal/contract/api';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { writeAudit } from '../db/audit';
import { AppError, noPermission, noSession } from '../errors';
import { endedSessionMessage, type SessionCache, type SessionUser } from '../auth/sessions';
import type { Keyring } from '../envelope/keyring';
import type { NonceStore } from '../envelope/nonces';
import { openEnvelope } from './envelope-hook';
import { DRAINING_MESSAGE, type Readiness } from './health';
import { mapError } from './error-map';
import { clientErrorHandler, drainRequest } from './limits';
import { permAllows, type Api, type Perm, type RouteRecord } from './route';
import {
  refuseOutOfScope,
  refuseWiderTarget,
  resolveRouteScope,
  type GrantTarget,
  type ResolvedRowScope,
} from './route-scope';
import { unstorableMessage, unstorablePath, zodMessage } from './validation';

declare module 'fastify' {
  interface FastifyRequest {
    user?: SessionUser;
  }
  interface FastifyContextConfig {
    perm?: Perm;
    envelope?: boolean;
    hasBodySchema?: boolean;
    rowScope?: ResolvedRowScope[];
    within?: GrantTarget;
    background?: boolean;
  }
}

export interface HttpDeps {
  config: Config;
  db: Db;
  keyring: Keyring;
  nonces: NonceStore;
  sessions: SessionCache;
  /** Draining on SIGTERM: new calls are refused before any other hook runs (platform/http/health.ts). */
  readiness: Readiness;
  logger?: boolean | object;
}

export function envelopeAnswer<T>(status: number, msg: string, data?: T): ApiResponse<T> {
  return data === undefined ? { status, ok: status === 200, msg } : { status, ok: status === 200, msg, data };
}

/** Answers with the envelope and the mirrored HTTP status (docs/protocol.md "The answer"). */
export function sendEnvelope(reply: FastifyReply, status: number, msg: string, data?: unknown) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(envelopeAnswer(status, msg, data));
}

/**
 * A success that a poller may revalidate (docs/protocol.md "Conditional GET"): the ETag is a hash
 * of the answer, so equal tags mean equal answers; a GET naming the current tag gets 304 and no
 * body. `private, no-cache`: the answer is the user's own and must be asked again every time.
 */
export function sendRevalidated(req: FastifyRequest, reply: FastifyReply, data: unknown) {
  const body = JSON.stringify(envelopeAnswer(STATUS.ok, '操作成功', data));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  const asked = req.headers['if-none-match'];
  if (req.method === 'GET' && typeof asked === 'string' && asked.split(/\s*,\s*/).includes(etag)) {
    return reply.code(304).send();
  }
  return reply.code(STATUS.ok).type('application/json; charset=utf-8').send(body);
}

function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(h);
  return m?.[1];
}

/** The document code a refused call named, when its body or query carries one. */
function namedCode(req: FastifyRequest): string | null {
  for (const src of [req.body, req.query]) {
    if (typeof src !== 'object' || src === null) continue;
    const r = src as Record<string, unknown>;
    // Only what reads as a code: a refused body may carry anything.
    if (typeof r.bizCode === 'string' && /^[\w.-]{1,64}$/.test(r.bizCode)) return r.bizCode;
    if (typeof r.id === 'number' && Number.isSafeInteger(r.id)) return String(r.id);
  }
  return null;
}

/**
 * 操作日志's failures (docs/operations.md "操作日志 result"): a call of a signed-in user that needed
 * a button (a write, an export, an unlock…) and was refused or failed leaves a row with result
 * `failure`, naming the screen (menu code) and the button, the status and the message. It is
 * written after the call's own transaction rolled back, so the call itself still changed nothing;
 * a failure to write it is logged and never changes the answer.
 */
async function recordFailure(db: Db, req: FastifyRequest, status: number, msg: string): Promise<void> {
  const user = req.user;
  const perm = req.routeOptions.config?.perm;
  if (!user || perm === undefined || status === STATUS.noSession) return;
  const button = (typeof perm === 'string' ? [perm] : perm).find((c) => c.includes(':'));
  if (!button) return;
  const cut = button.lastIndexOf(':');
  try {
    await writeAudit(
      db,
      { userId: user.userId, userName: user.userName, requestId: req.id, ip: req.ip },
      {
        entity: button.slice(0, cut),
        entityCode: namedCode(req),
        action: button.slice(cut + 1),
        detail: { path: req.url.split('?')[0], status, msg },
        result: 'failure',
      },
    );
  } catch (err) {
    req.log.error({ err }, 'could not record the failure in 操作日志');
  }
}

/** JSON bodies (SECURITY.md "Input"); uploads have their own limit, UPLOAD_LIMIT_MB. */
const BODY_LIMIT = 4 * 1024 * 1024;

export interface Http {
  app: FastifyInstance;
  /**
   * Where a module registers its calls: `instance` is the module's own plugin context, registered
   * under the `/api` prefix (server.ts), so the contract path is all the route needs.
   */
  apiOn(instance: FastifyInstance, module: string): Api;
  routes: RouteRecord[];
}

export function createHttp(deps: HttpDeps): Http {
  const { config, db } = deps;
  // A refused body is read up to twice the larger limit before its 413 (SECURITY.md "Limits").
  // The upload limit is a setting changed without a restart: read it when a body is refused.
  const drainLimit = () => 2 * Math.max(BODY_LIMIT, config.uploadLimitBytes);
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    genReqId: () => randomUUID(),
    bodyLimit: BODY_LIMIT,
    clientErrorHandler,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
  });
  const routes: RouteRecord[] = [];

  app.setValidatorCompiler<z.ZodType>(({ schema }) => (data: unknown) => {
    const r = schema.safeParse(data);
    if (r.success) {
      const bad = unstorablePath(r.data);
      if (bad) return { error: new AppError(STATUS.badInput, unstorableMessage(bad)) };
      return { value: r.data };
    }
    const err = new AppError(STATUS.badInput, zodMessage(r.error));
    return { error: err };
  });

  // First of all hooks: a draining server reads no session and opens no envelope for a new call.
  // 503 is what the proxy passes on to another server (deploy/nginx.conf, proxy_next_upstream).
  app.addHook('onRequest', async (req, reply) => {
    if (!deps.readiness.refuses(req.url)) return;
    reply.header('connection', 'close').header('retry-after', '1');
    return sendEnvelope(reply, STATUS.unavailable, DRAINING_MESSAGE);
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    // Read once: Fastify builds `routeOptions` afresh at every read.
    const cfg = req.routeOptions.config;
    const perm = cfg.perm;
    if (perm === undefined || perm === 'public') return;
    const token = bearer(req);
    const background = cfg.background === true;
    const user = token ? await deps.sessions.resolve(db, token, { background }) : undefined;
    if (user) req.user = user;
    const verdict = permAllows(perm, user);
    if (verdict === 'noSession') throw noSession(token ? await endedSessionMessage(db, token) : undefined);
    if (verdict === 'noCode') throw noPermission();
    // A temporary password opens nothing but the calls every signed-in user has (change it first).
    if (user?.mustChangePassword && perm !== 'session') throw noPermission('请先修改初始密码');
  });

  app.addHook('preValidation', async (req) => {
    const cfg = req.routeOptions.config;
    if (cfg.envelope) {
      await openEnvelope(req, {
        config,
        keyring: deps.keyring,
        nonces: deps.nonces,
        hasBodySchema: !!cfg.hasBodySchema,
      });
    }
    // After the envelope (the body is readable), before validation (route-scope.ts).
    if (cfg.rowScope && req.user) await refuseOutOfScope(db, cfg.rowScope, req.user, [req.query, req.body]);
    if (cfg.within && req.user) await refuseWiderTarget(db, cfg.within, req.user, [req.query, req.body]);
  });

  app.setErrorHandler(async (err, req, reply) => {
    const mapped = mapError(err);
    // Let a 413 reach a client that is still sending (platform/http/limits.ts).
    if (mapped.status === STATUS.tooLarge) await drainRequest(req.raw, drainLimit());
    if (mapped.status >= 500) req.log.error({ err }, 'unexpected fault');
    else if (mapped.status !== STATUS.noSession && mapped.status !== STATUS.forbiddenCode)
      req.log.info({ status: mapped.status, msg: mapped.msg }, 'refused');
    await recordFailure(db, req, mapped.status, mapped.msg);
    return sendEnvelope(reply, mapped.status, mapped.msg, mapped.data);
  });

  const indexHtml =
    config.webDist && existsSync(join(config.webDist, 'index.html'))
      ? readFileSync(join(config.webDist, 'index.html'))
      : undefined;
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (path.startsWith('/api/') || path === '/api' || !indexHtml || req.method !== 'GET') {
      return sendEnvelope(reply, STATUS.notFound, '接口不存在');
    }
    // History fallback: every non-API GET that is not a file is the SPA.
    return reply
      .code(200)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(indexHtml);
  });

  const apiOn = (instance: FastifyInstance, module: string): Api => {
    if (instance.prefix !== API_PREFIX) throw new Error(`module routes belong under ${API_PREFIX}`);
    return { post };
    function post(...[contractPath, opts, handler]: Parameters<Api['post']>): void {
      // Modules register the contract package's paths; every call is served under /api.
      if (!contractPath.startsWith('/') || contractPath.startsWith(`${API_PREFIX}/`))
        throw new Error(`route ${contractPath} must be a contract path (without ${API_PREFIX})`);
      const path = `${API_PREFIX}${contractPath}`;
      const envelope = opts.envelope ?? (opts.perm !== 'public' || opts.body !== undefined);
      const methods: ('POST' | 'GET')[] = opts.get || opts.revalidate ? ['POST', 'GET'] : ['POST'];
      const rowScope = resolveRouteScope(opts.scope);
      for (const method of methods) {
        const rec: RouteRecord = { method, path, module, perm: opts.perm, scope: opts.scope, envelope };
        if (opts.within) rec.within = opts.within;
        if (opts.body) rec.body = opts.body;
        if (opts.query) rec.query = opts.query;
        if (opts.summary) rec.summary = opts.summary;
        routes.push(rec);
        instance.route({
          method,
          url: contractPath,
          schema: {
            ...(opts.body && method === 'POST' ? { body: opts.body } : {}),
            ...(opts.query ? { querystring: opts.query } : {}),
          },
          config: {
            perm: opts.perm,
            envelope,
            hasBodySchema: !!opts.body,
            ...(rowScope ? { rowScope } : {}),
            ...(opts.within ? { within: opts.within } : {}),
            ...(opts.background ? { background: true } : {}),
          },
          handler: async (req, reply) => {
            const user = req.user as SessionUser;
            const result = await handler({
              body: req.body as never,
              query: req.query as never,
              user,
              actor: {
                userId: user?.userId ?? 0,
                userName: user?.userName ?? 'anonymous',
                requestId: req.id,
                ip: req.ip,
              },
              req,
              reply,
            });
            if (opts.raw) return reply;
            if (opts.revalidate) return sendRevalidated(req, reply, result ?? null);
            return sendEnvelope(reply, STATUS.ok, '操作成功', result ?? null);
          },
        });
      }
    }
  };

  return { app, apiOn, routes };
}
