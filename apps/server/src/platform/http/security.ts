import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { API_PREFIX } from '@portal/contract/api';
import { AUTH_PATHS, LOGIN_MESSAGES } from '@portal/contract/auth';
import { tooMany } from '../errors';

/**
 * Security headers (SECURITY.md "Headers"): a CSP without inline scripts; frame-ancestors 'self' because the
 * portal embeds its own pages (docs/architecture.md "The web shell") and nobody else may frame it.
 */
export async function installSecurity(app: FastifyInstance, config: Config, redis?: Redis): Promise<void> {
  const frameAncestors = [
    "'self'",
    ...[config.voucherSiteUrl, config.dwSiteUrl]
      .filter((u): u is string => !!u)
      .map((u) => new URL(u).origin),
  ];
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd injects component styles at run time (CSS-in-JS).
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors,
      },
    },
    frameguard: false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
    // HSTS is ours, below: helmet would send it over plain HTTP too.
    hsts: false,
  });

  // Strict-Transport-Security only on answers to HTTPS requests (SECURITY.md "Headers"): behind a
  // TLS-terminating proxy that is X-Forwarded-Proto, believed only with TRUST_PROXY. Never over
  // plain HTTP, where browsers ignore it and a laptop start must not be pinned to HTTPS.
  if (config.hsts) {
    app.addHook('onSend', async (req, reply) => {
      if (req.protocol === 'https') void reply.header('strict-transport-security', 'max-age=31536000');
    });
  }

  // Per user (all their sessions together) and per IP. The IP limit is wider: an office behind one
  // NAT shares an address. Both run after the session is resolved, so the user is known; calls
  // refused for want of a session (403) are cheap and not counted.
  const anyLimit = [
    config.rateLimitPerMinute,
    config.rateLimitPerIpPerMinute,
    config.loginPerIpPerMinute,
    config.loginPerUserPerMinute,
  ].some((n) => n > 0);
  if (anyLimit) {
    await app.register(rateLimit, { global: false, timeWindow: 60_000, ...(redis ? { redis } : {}) });
  }
  if (config.rateLimitPerMinute > 0 || config.rateLimitPerIpPerMinute > 0) {
    const limits = [
      config.rateLimitPerMinute > 0 &&
        app.createRateLimit({
          max: config.rateLimitPerMinute,
          timeWindow: 60_000,
          keyGenerator: (req) => (req.user ? `u:${req.user.userId}` : `anon:${req.ip}`),
        }),
      config.rateLimitPerIpPerMinute > 0 &&
        app.createRateLimit({
          max: config.rateLimitPerIpPerMinute,
          timeWindow: 60_000,
          keyGenerator: (req) => `ip:${req.ip}`,
        }),
    ].filter((l) => l !== false);
    app.addHook('onRequest', async (req, reply) => {
      // API calls only. The web client's files (some 60 chunks per cold page) are not calls: counted,
      // an office behind one address ran out of its anonymous allowance at a busy start of day,
      // the chunks answered 429 and screens stayed blank (the browser tests' 30 s "stalls").
      if (!req.url.startsWith(`${API_PREFIX}/`)) return;
      for (const limit of limits) {
        const verdict = await limit(req);
        if (!verdict.isAllowed && verdict.isExceeded) {
          void reply.header('retry-after', String(verdict.ttlInSeconds));
          throw tooMany('请求过于频繁，请稍后再试');
        }
      }
    });
  }
}

const LOGIN_URL = `/api${AUTH_PATHS.login}`;

/**
 * Login attempts per minute per client IP and per user name (SECURITY.md "Sign-in"), apart from
 * the API limits: a login costs an RSA decryption and a password hash, thousands of times a plain
 * call. The IP limit is checked as the request arrives, before the envelope is opened: a flood
 * from one address past its limit costs no RSA work on the shared thread pool. The user name is
 * inside the envelope, so its limit is checked once the body is open, before any database work or
 * hash. Call after installSecurity has registered the rate-limit plugin.
 */
export function installLoginLimits(app: FastifyInstance, config: Config): void {
  const check = async (
    limit: ReturnType<FastifyInstance['createRateLimit']>,
    req: FastifyRequest,
    reply: FastifyReply,
  ) => {
    if (req.routeOptions.url !== LOGIN_URL) return;
    const verdict = await limit(req);
    if (!verdict.isAllowed && verdict.isExceeded) {
      void reply.header('retry-after', String(verdict.ttlInSeconds));
      throw tooMany(LOGIN_MESSAGES.tooFrequent);
    }
  };
  if (config.loginPerIpPerMinute > 0) {
    const perIp = app.createRateLimit({
      max: config.loginPerIpPerMinute,
      timeWindow: 60_000,
      keyGenerator: (req) => `login-ip:${req.ip}`,
    });
    app.addHook('onRequest', (req, reply) => check(perIp, req, reply));
  }
  if (config.loginPerUserPerMinute > 0) {
    const perUser = app.createRateLimit({
      max: config.loginPerUserPerMinute,
      timeWindow: 60_000,
      keyGenerator: (req) => `login-user:${loginName(req.body)}`,
    });
    app.addHook('preHandler', (req, reply) => check(perUser, req, reply));
  }
}

/** The user name as the login compares it (trimmed, lower case). */
function loginName(body: unknown): string {
  const name = (body as { userName?: unknown } | undefined)?.userName;
  return typeof name === 'string' ? name.trim().toLowerCase() : '';
}
