import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RouteRecord } from './route';

function jsonSchema(schema: z.ZodType | undefined): unknown {
  if (!schema) return undefined;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  } catch {
    return { description: 'see the zod schema in packages/contract' };
  }
}

/** Every call, listed at GET /api/docs (docs/protocol.md "Paths and methods"). */
export function publishDocs(app: FastifyInstance, routes: RouteRecord[]): void {
  let doc: unknown;
  app.get('/api/docs', { config: { perm: 'public' } }, async () => {
    doc ??= {
      openapi: '3.1.0',
      info: {
        title: 'Factoring portal API',
        version: '1',
        description: 'Envelope, statuses and values: docs/protocol.md in the repository',
      },
      paths: Object.fromEntries(
        [...new Set(routes.map((r) => r.path))].map((path) => [
          path,
          Object.fromEntries(
            routes
              .filter((r) => r.path === path)
              .map((r) => [
                r.method.toLowerCase(),
                {
                  summary: r.summary,
                  'x-permission': r.perm,
                  'x-row-scope': r.scope,
                  'x-envelope': r.envelope,
                  parameters: r.query
                    ? [{ in: 'query', name: 'query', schema: jsonSchema(r.query) }]
                    : undefined,
                  requestBody:
                    r.body && r.method === 'POST'
                      ? { content: { 'application/json': { schema: jsonSchema(r.body) } } }
                      : undefined,
                },
              ]),
          ),
        ]),
      ),
    };
    return doc;
  });
}
