import { basename, dirname, extname, resolve } from 'node:path';
import { isTest, moduleReads, sqlReads } from './module-reads.js';

/**
 * The walls between business areas (docs/module-map.md), checked on the resolved path of every
 * relative import, so that a tie between two areas is either declared or refused:
 *
 * - a web feature imports nothing from another feature: what two features share moves down into
 *   `shared/` (or `packages/contract`);
 * - a server module uses another module only through its public surface, `modules/<area>/index.ts`
 *   (what others may call), and reads another module's tables only where `schemaReads` declares it
 *   (eslint/schema-reads.js): in drizzle (a table imported from its `schema.ts`) and in SQL text
 *   (`from <table>`, `join <table>`, `tables` naming each table's owner). A declaration no file of
 *   the module uses any more is refused too, on the module's routes.ts (its plugin), which reads the
 *   module's other files (eslint/module-reads.js). Tests and test kits compose the whole app and
 *   are exempt;
 * - a server module writes only its own tables: an insert, update or delete of another module's
 *   table (`tx.update(contracts)` with the table imported from its schema.ts, or `update contracts`,
 *   `insert into …`, `delete from …` in SQL text, `tables` naming each table's owner:
 *   eslint/table-owners.js) is refused even where the read is declared; the owner offers a function
 *   that does it (docs/architecture.md "Modules").
 */

const FEATURE = /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]([^\\/]+)[\\/]/;
const MODULE = /[\\/]apps[\\/]server[\\/]src[\\/]modules[\\/]([^\\/]+)[\\/]/;

const areaOf = (pattern, path) => pattern.exec(path)?.[1];
/** `modules/<area>` itself: its index.ts. */
const isIndex = (target, area) =>
  /[\\/]apps[\\/]server[\\/]src[\\/]modules[\\/]([^\\/]+)[\\/](index(\.[jt]s)?[\\/])?$/.exec(target)?.[1] ===
  area;
const isSchema = (path) => basename(path, extname(path)) === 'schema';

/** A write statement in SQL text and the table it writes, if named there (quoted or not). */
const SQL_WRITE =
  /\b(update|insert\s+into|delete\s+from)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;
/** SQL text that ends where a table is interpolated: `update ${table} …`. */
const SQL_WRITE_END = /\b(update|insert\s+into|delete\s+from)\s+(?:only\s+)?$/i;
const DRIZZLE_WRITES = new Set(['update', 'insert', 'delete']);

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'imports between business areas go through declared ties only' },
    schema: [
      {
        type: 'object',
        properties: {
          schemaReads: { type: 'object', additionalProperties: { type: 'array' } },
          tables: { type: 'object', additionalProperties: { type: 'string' } },
        },
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
      crossRead:
        'modules/{{from}} reads {{table}}, a table of modules/{{to}}, in SQL text: call (or add) a function of its index.ts, or declare the read in eslint/schema-reads.js',
      staleRead:
        'eslint/schema-reads.js declares that modules/{{from}} reads the tables of modules/{{to}}, but no file of modules/{{from}} does: remove the declaration',
      foreignWrite:
        'modules/{{from}} writes {{table}}, a table of modules/{{to}}: only {{to}} writes its tables; call (or add) a function of its index.ts that does it (docs/architecture.md "Modules")',
    },
  },
  create(context) {
    const file = context.filename;
    const schemaReads = context.options[0]?.schemaReads ?? {};
    const tables = context.options[0]?.tables ?? {};
    const fromModule = areaOf(MODULE, file);
    /** Local names bound to another module's schema.ts: table name → its module, namespace → module. */
    const foreignTables = new Map();
    const foreignSchemas = new Map();
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
    const writes = fromModule && !isTest(file);
    const noteImport = (node) => {
      if (!writes || typeof node.source.value !== 'string' || !node.source.value.startsWith('.')) return;
      const target = resolve(dirname(file), node.source.value) + '/';
      const toModule = areaOf(MODULE, target);
      if (!toModule || toModule === fromModule || !isSchema(target.slice(0, -1))) return;
      for (const spec of node.specifiers) {
        if (spec.type === 'ImportNamespaceSpecifier') foreignSchemas.set(spec.local.name, toModule);
        else foreignTables.set(spec.local.name, toModule);
      }
    };
    /** The module whose table this expression names, when it is another module's. */
    const foreignTable = (node) => {
      if (node?.type === 'Identifier') return foreignTables.get(node.name);
      if (node?.type === 'MemberExpression' && node.object.type === 'Identifier')
        return foreignSchemas.get(node.object.name);
      return undefined;
    };
    const tableName = (node) =>
      node.type === 'Identifier' ? node.name : `${node.object.name}.${node.property.name ?? ''}`;
    const reportWrite = (node, table, to) =>
      context.report({ node, messageId: 'foreignWrite', data: { from: fromModule, to, table } });
    const declared = (to) => (schemaReads[fromModule] ?? []).includes(to);
    /**
     * `update <table>`, `insert into <table>`, `delete from <table>` in SQL text; `from <table>`,
     * `join <table>` of another module's table where the read is not declared.
     */
    const checkText = (node, text) => {
      for (const [, , table] of text.matchAll(SQL_WRITE)) {
        const to = tables[table.toLowerCase()];
        if (to && to !== fromModule) reportWrite(node, table, to);
      }
      for (const [table, to] of sqlReads(text, tables, fromModule))
        if (!declared(to))
          context.report({ node, messageId: 'crossRead', data: { from: fromModule, to, table } });
    };
    /** On the module's routes.ts: each declared read some production file of the module makes. */
    const checkStale = (program) => {
      if (basename(file) !== 'routes.ts' || dirname(file) !== resolve(file, '..', '..', fromModule)) return;
      const used = moduleReads(fromModule, tables, { file, text: context.sourceCode.text });
      for (const to of schemaReads[fromModule] ?? [])
        if (!used.has(to))
          context.report({
            node: program,
            loc: { line: 1, column: 0 },
            messageId: 'staleRead',
            data: { from: fromModule, to },
          });
    };
    const writeChecks = writes
      ? {
          CallExpression: (node) => {
            const callee = node.callee;
            if (callee.type !== 'MemberExpression' || callee.computed) return;
            if (!DRIZZLE_WRITES.has(callee.property.name)) return;
            const to = foreignTable(node.arguments[0]);
            if (to) reportWrite(node, tableName(node.arguments[0]), to);
          },
          TemplateLiteral: (node) => {
            node.quasis.forEach((q, i) => {
              checkText(q, q.value.cooked ?? q.value.raw);
              const expr = node.expressions[i];
              const to =
                expr && SQL_WRITE_END.test(q.value.cooked ?? q.value.raw) ? foreignTable(expr) : undefined;
              if (to) reportWrite(expr, tableName(expr), to);
            });
          },
          Literal: (node) => {
            if (typeof node.value === 'string') checkText(node, node.value);
          },
        }
      : {};
    return {
      ...writeChecks,
      ...(writes ? { 'Program:exit': checkStale } : {}),
      ImportDeclaration: (node) => {
        noteImport(node);
        check(node.source);
      },
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default { rules: { 'module-boundaries': rule } };
