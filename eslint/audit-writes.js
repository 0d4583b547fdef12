import { relative, resolve } from 'node:path';

/**
 * Every write goes through one command path (docs/architecture.md "The command path"): it checks
 * the version, writes the audit row and answers a unique index in words. A file of the server that
 * imports `writeAudit` or `writeAudits` (platform/db/audit.ts) writes its audit row by hand, outside that path, and
 * is refused unless eslint/audit-writers.js lists it. Tests compose rows as they need and are exempt.
 */

const SRC = resolve(import.meta.dirname, '../apps/server/src');
const AUDIT_MODULE = /(^|[\\/])platform[\\/]db[\\/]audit(\.[jt]s)?$|^\.\/audit(\.[jt]s)?$/;

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'audit rows are written by the command path, not by hand' },
    schema: [
      {
        type: 'object',
        properties: { allowed: { type: 'object', additionalProperties: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      byHand:
        '{{file}} writes its audit row by hand: run the write through runCommand (platform/db/command.ts), which writes it (docs/architecture.md "The command path")',
    },
  },
  create(context) {
    const file = relative(SRC, context.filename).split('\\').join('/');
    const allowed = context.options[0]?.allowed ?? {};
    if (file.startsWith('..') || /\.test\.tsx?$/.test(file) || file in allowed) return {};
    return {
      ImportDeclaration(node) {
        if (typeof node.source.value !== 'string' || !AUDIT_MODULE.test(node.source.value)) return;
        for (const spec of node.specifiers) {
          const named = spec.type === 'ImportSpecifier' && /^writeAudits?$/.test(spec.imported.name);
          if (named || spec.type === 'ImportNamespaceSpecifier')
            context.report({ node: spec, messageId: 'byHand', data: { file } });
        }
      },
    };
  },
};

export default { rules: { 'audit-writes': rule } };
