import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { tooMany } from '../errors';

/**
 * Security headers (issue 15): a CSP without inline scripts; frame-ancestors 'self' because the
 * portal embeds its own pages (SPEC §2.1 iframe rule) and nobody else may frame it.
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
    hsts: false,
  });

  // Per user (all their sessions together) and per IP. The IP limit is wider: an office behind one
  // NAT shares an address. Both run after the session is resolved, so the user is known; calls
  // refused for want of a session (403) are cheap and not counted.
  if (config.rateLimitPerMinute > 0 || config.rateLimitPerIpPerMinute > 0) {
    await app.register(rateLimit, { global: false, timeWindow: 60_000, ...(redis ? { redis } : {}) });
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
