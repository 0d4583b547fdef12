import { createHash } from 'node:crypto';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * Security headers (issue 15): a CSP without inline scripts; frame-ancestors 'self' because the
 * portal embeds its own pages (SPEC §2.1 iframe rule) and nobody else may frame it.
 */
export async function installSecurity(app: FastifyInstance, config: Config): Promise<void> {
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

  // Per session, so one office behind a NAT is not one bucket; anonymous calls per IP.
  if (config.rateLimitPerMinute > 0) {
    await app.register(rateLimit, {
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      keyGenerator: (req) => {
        const auth = req.headers.authorization;
        return auth ? `s:${createHash('sha256').update(auth).digest('base64url')}` : `ip:${req.ip}`;
      },
      errorResponseBuilder: (_req, ctx) => ({
        statusCode: 429,
        code: 'FST_ERR_RATE_LIMIT',
        message: `rate limit ${ctx.max}/min`,
      }),
    });
  }
}
