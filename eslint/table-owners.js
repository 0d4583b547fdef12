import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which server module owns each table: the `pgTable('<name>'` declarations of its schema.ts, read
 * when the lint configuration loads (as scripts/module-map.ts reads them for docs/module-map.md).
 * The boundaries rule refuses a write of a table from any other module.
 */
const modules = join(import.meta.dirname, '../apps/server/src/modules');

export const TABLE_OWNERS = Object.fromEntries(
  readdirSync(modules, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(modules, d.name, 'schema.ts')))
    .flatMap((d) =>
      [
        ...readFileSync(join(modules, d.name, 'schema.ts'), 'utf8').matchAll(/pgTable\(\s*'([a-z0-9_]+)'/g),
      ].map((m) => [m[1], d.name]),
    ),
);
