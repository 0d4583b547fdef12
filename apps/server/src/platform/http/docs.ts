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

/** PROTOCOL.md §7: every call, including those SPEC does not name, listed at GET /api/docs. */
export function publishDocs(app: FastifyInstance, routes: RouteRecord[]): void {
  let doc: unknown;
  app.get('/api/docs', { config: { perm: 'public' } }, async () => {
    doc ??= {
      openapi: '3.1.0',
      info: {
        title: 'Factoring portal API',
        version: '1',
        description: 'Envelope, statuses and values: PROTOCOL.md',
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
