import { basename, dirname, extname, resolve } from 'node:path';

/**
 * The walls between business areas (docs/module-map.md), checked on the resolved path of every
 * relative import, so that a tie between two areas is either declared or refused:
 *
 * - a web feature imports nothing from another feature: what two features share moves down into
 *   `shared/` (or `packages/contract`);
 * - a server module uses another module only through its public surface, `modules/<area>/index.ts`
 *   (what others may call), and reads another module's tables (its `schema.ts`) only where
 *   `schemaReads` declares it (eslint/schema-reads.js). Tests and test kits compose the whole app
 *   and are exempt.
 */

const FEATURE = /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]([^\\/]+)[\\/]/;
const MODULE = /[\\/]apps[\\/]server[\\/]src[\\/]modules[\\/]([^\\/]+)[\\/]/;

const areaOf = (pattern, path) => pattern.exec(path)?.[1];
const isTest = (path) => /\.test\.tsx?$/.test(path) || basename(path, extname(path)) === 'testkit';
/** `modules/<area>` itself: its index.ts. */
const isIndex = (target, area) =>
  /[\\/]apps[\\/]server[\\/]src[\\/]modules[\\/]([^\\/]+)[\\/](index(\.[jt]s)?[\\/])?$/.exec(target)?.[1] ===
  area;
const isSchema = (path) => basename(path, extname(path)) === 'schema';

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'imports between business areas go through declared ties only' },
    schema: [
      {
        type: 'object',
        properties: { schemaReads: { type: 'object', additionalProperties: { type: 'array' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      crossFeature:
        'features/{{from}} imports from features/{{to}}: move what both need down into shared/ (docs/module-map.md)',
      crossInternal:
        'modules/{{from}} imports a file of modules/{{to}}: import what {{to}} offers from its index.ts (`../{{to}}`), adding it there if another module may call it',
      crossSchema:
        'modules/{{from}} reads the tables of modules/{{to}}: call a function of {{to}} instead, or declare the read in eslint/schema-reads.js',
    },
  },
  create(context) {
    const file = context.filename;
    const schemaReads = context.options[0]?.schemaReads ?? {};
    const check = (source) => {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = resolve(dirname(file), source.value) + '/';
      const fromFeature = areaOf(FEATURE, file);
      const toFeature = areaOf(FEATURE, target);
      if (fromFeature && toFeature && fromFeature !== toFeature) {
        context.report({
          node: source,
          messageId: 'crossFeature',
          data: { from: fromFeature, to: toFeature },
        });
        return;
      }
      const fromModule = areaOf(MODULE, file);
      const toModule = areaOf(MODULE, target);
      if (!fromModule || !toModule || fromModule === toModule || isTest(file)) return;
      if (isIndex(target, toModule)) return;
      if (!isSchema(target.slice(0, -1))) {
        context.report({
          node: source,
          messageId: 'crossInternal',
          data: { from: fromModule, to: toModule },
        });
        return;
      }
      if ((schemaReads[fromModule] ?? []).includes(toModule)) return;
      context.report({ node: source, messageId: 'crossSchema', data: { from: fromModule, to: toModule } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default { rules: { 'module-boundaries': rule } };
