import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { STATUS, type ApiResponse } from '@portal/contract/api';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { AppError, noPermission, noSession } from '../errors';
import type { SessionCache, SessionUser } from '../auth/sessions';
import type { Keyring } from '../envelope/keyring';
import type { NonceStore } from '../envelope/nonces';
import { openEnvelope } from './envelope-hook';
import { mapError } from './error-map';
import { permAllows, type Api, type Perm, type RouteRecord } from './route';
import { zodMessage } from './validation';

declare module 'fastify' {
  interface FastifyRequest {
    user?: SessionUser;
  }
  interface FastifyContextConfig {
    perm?: Perm;
    envelope?: boolean;
    hasBodySchema?: boolean;
  }
}

export interface HttpDeps {
  config: Config;
  db: Db;
  keyring: Keyring;
  nonces: NonceStore;
  sessions: SessionCache;
  logger?: boolean | object;
}

export function envelopeAnswer<T>(status: number, msg: string, data?: T): ApiResponse<T> {
  return data === undefined ? { status, ok: status === 200, msg } : { status, ok: status === 200, msg, data };
}

/** Answers with the envelope and the mirrored HTTP status (PROTOCOL.md §1). */
export function sendEnvelope(reply: FastifyReply, status: number, msg: string, data?: unknown) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(envelopeAnswer(status, msg, data));
}

function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(h);
  return m?.[1];
}

export function createHttp(deps: HttpDeps): { app: FastifyInstance; api: Api; routes: RouteRecord[] } {
  const { config, db } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    genReqId: () => randomUUID(),
    bodyLimit: 4 * 1024 * 1024,
    trustProxy: process.env.TRUST_PROXY === 'true',
    routerOptions: { ignoreTrailingSlash: true },
  });
  const routes: RouteRecord[] = [];

  app.setValidatorCompiler<z.ZodType>(({ schema }) => (data: unknown) => {
    const r = schema.safeParse(data);
    if (r.success) return { value: r.data };
    const err = new AppError(STATUS.badInput, zodMessage(r.error));
    return { error: err };
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    const perm = req.routeOptions.config.perm;
    if (perm === undefined || perm === 'public') return;
    const token = bearer(req);
    const user = token ? await deps.sessions.resolve(db, token) : undefined;
    if (user) req.user = user;
    const verdict = permAllows(perm, user);
    if (verdict === 'noSession') throw noSession();
    if (verdict === 'noCode') throw noPermission();
    // A temporary password opens nothing but the calls every signed-in user has (change it first).
    if (user?.mustChangePassword && perm !== 'session') throw noPermission('请先修改初始密码');
  });

  app.addHook('preValidation', async (req) => {
    const cfg = req.routeOptions.config;
    if (!cfg.envelope) return;
    await openEnvelope(req, {
      config,
      keyring: deps.keyring,
      nonces: deps.nonces,
      hasBodySchema: !!cfg.hasBodySchema,
    });
  });

  app.setErrorHandler((err, req, reply) => {
    const mapped = mapError(err);
    if (mapped.status >= 500) req.log.error({ err }, 'unexpected fault');
    else if (mapped.status !== STATUS.noSession && mapped.status !== STATUS.forbiddenCode)
      req.log.info({ status: mapped.status, msg: mapped.msg }, 'refused');
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

  const api: Api = {
    post(path, opts, handler) {
      if (!path.startsWith('/api/')) throw new Error(`route ${path} must start with /api/`);
      const envelope = opts.envelope ?? (opts.perm !== 'public' || opts.body !== undefined);
      const methods: ('POST' | 'GET')[] = opts.get ? ['POST', 'GET'] : ['POST'];
      for (const method of methods) {
        const rec: RouteRecord = { method, path, perm: opts.perm, envelope };
        if (opts.body) rec.body = opts.body;
        if (opts.query) rec.query = opts.query;
        if (opts.summary) rec.summary = opts.summary;
        routes.push(rec);
        app.route({
          method,
          url: path,
          schema: {
            ...(opts.body && method === 'POST' ? { body: opts.body } : {}),
            ...(opts.query ? { querystring: opts.query } : {}),
          },
          config: { perm: opts.perm, envelope, hasBodySchema: !!opts.body },
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
              },
              req,
              reply,
            });
            if (opts.raw) return reply;
            return sendEnvelope(reply, STATUS.ok, '操作成功', result ?? null);
          },
        });
      }
    },
  };

  return { app, api, routes };
}
