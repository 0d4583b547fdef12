import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DOC_TYPE_KEYS } from '@portal/contract/workflow';
import {
  auditActionLabel,
  auditEntityLabel,
  auditFieldLabel,
  auditValueLabel,
  AUDIT_HIDDEN_FIELD,
} from '@portal/contract/audit';

/**
 * Walks every audit row the server can write (docs/operations.md "操作日志 labels"): each call of
 * writeAudit, each command (runCommand's entity and action, its writer's `audit` entry), each document's `{ code, detail }` and `remove` answer the pipeline audits, read by
 * the type checker. Every entity and action named as a literal, every key of a detail (nested
 * objects and arrays too) and every value a key can take as a literal must have its Chinese label;
 * a key or value added without one fails here.
 */
const root = path.resolve(__dirname, '..');

function program(): ts.Program {
  const file = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json')!;
  const cfg = ts.readConfigFile(file, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(cfg.config, ts.sys, root);
  const files = parsed.fileNames.filter(
    (f) => f.includes('/src/') && !/\.test\.ts$|fixtures|\/testing\//.test(f),
  );
  return ts.createProgram(files, { ...parsed.options, noEmit: true });
}

interface Found {
  where: string;
  problem: string;
}

function walk(): Found[] {
  const p = program();
  const checker = p.getTypeChecker();
  const out: Found[] = [];
  const literals = (t: ts.Type): string[] | null => {
    const parts = t.isUnion() ? t.types : [t];
    const strs = parts.filter((x) => !(x.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
    if (strs.length && strs.every((x) => x.isStringLiteral()))
      return strs.map((x) => (x as ts.StringLiteralType).value);
    return null;
  };
  const seen = new Set<ts.Type>();
  const detailKeys = (t: ts.Type, where: string, depth = 0): void => {
    if (depth > 4 || seen.has(t)) return;
    seen.add(t);
    const nonNull = checker.getNonNullableType(t);
    for (const part of nonNull.isUnion() ? nonNull.types : [nonNull]) {
      if (checker.isArrayType(part) || checker.isTupleType(part)) {
        for (const a of checker.getTypeArguments(part as ts.TypeReference)) detailKeys(a, where, depth + 1);
        continue;
      }
      if (!(part.flags & ts.TypeFlags.Object)) continue;
      const sym = part.getSymbol();
      if (sym && ['Date', 'Decimal'].includes(sym.getName())) continue;
      for (const prop of checker.getPropertiesOfType(part)) {
        const key = prop.getName();
        if (AUDIT_HIDDEN_FIELD.test(key)) continue;
        const pt = checker.getTypeOfSymbol(prop);
        if (key === 'before' || key === 'after') {
          detailKeys(pt, where, depth + 1);
          continue;
        }
        if (!auditFieldLabel(key)) out.push({ where, problem: `field ${key}` });
        for (const v of literals(checker.getNonNullableType(pt)) ?? [])
          if (!auditValueLabel(key, v)) out.push({ where, problem: `value ${key}=${v}` });
        detailKeys(pt, where, depth + 1);
      }
    }
  };
  const at = (n: ts.Node) => {
    const sf = n.getSourceFile();
    const { line } = sf.getLineAndCharacterOfPosition(n.getStart());
    return `${path.relative(root, sf.fileName)}:${line + 1}`;
  };
  const visit = (n: ts.Node): void => {
    // writeAudit's entry; a command's (runCommand) entity and action; its writer's `audit({ action, detail })`.
    const callee = ts.isCallExpression(n)
      ? ts.isIdentifier(n.expression)
        ? n.expression.text
        : ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'audit'
          ? 'audit'
          : ''
      : '';
    if (ts.isCallExpression(n) && ['writeAudit', 'runCommand', 'audit'].includes(callee)) {
      // A command named once before the call (`const cmd = { entity, action, … }`) is read at its declaration.
      let entry = n.arguments[callee === 'audit' ? 0 : 2];
      if (entry && ts.isIdentifier(entry)) {
        const decl = checker.getSymbolAtLocation(entry)?.valueDeclaration;
        if (decl && ts.isVariableDeclaration(decl) && decl.initializer) entry = decl.initializer;
      }
      if (entry) {
        // The written expression's own type: the parameter's `string` would hide its literals.
        const own = (name: string): ts.Type | undefined => {
          if (!entry || !ts.isObjectLiteralExpression(entry)) return undefined;
          const prop = entry.properties.find(
            (x) => x.name && ts.isIdentifier(x.name) && x.name.text === name,
          );
          if (prop && ts.isPropertyAssignment(prop)) return checker.getTypeAtLocation(prop.initializer);
          if (prop && ts.isShorthandPropertyAssignment(prop)) return checker.getTypeAtLocation(prop.name);
          return undefined;
        };
        for (const [name, labelOf] of [
          ['entity', auditEntityLabel],
          ['action', auditActionLabel],
        ] as const) {
          const t = own(name);
          const vs = t ? literals(t) : null;
          for (const v of vs ?? []) if (!labelOf(v)) out.push({ where: at(n), problem: `${name} ${v}` });
        }
        const d = own('detail');
        if (d) detailKeys(d, at(n));
        // An update of a record shows each changed field before and after (操作日志, 审核信息):
        // its detail records both, never only the values written. A document's draft save (the
        // pipeline's row) is the exception: a draft is not in force, and what changes a document
        // in force is its change document (合同变更, 额度变更), which records before and after.
        // A command names its action once and writes its detail in its writer's `audit` entry: the
        // entries of its write are checked (one of them with before and after where the command
        // is an update or may be one, as `code ? 'update' : 'create'` is).
        const acts = own('action');
        const pipeline = n.getSourceFile().fileName.endsWith('/workflow/pipeline.ts');
        const hasBeforeAfter = (t: ts.Type | undefined) => {
          const dt = t && checker.getNonNullableType(t);
          return !!dt && !!dt.getProperty('before') && !!dt.getProperty('after');
        };
        if (acts && !pipeline && (literals(acts) ?? []).includes('update')) {
          const write = callee === 'runCommand' ? n.arguments[3] : undefined;
          const entries: (ts.Type | undefined)[] = [];
          const findAudits = (x: ts.Node): void => {
            if (
              ts.isCallExpression(x) &&
              ts.isPropertyAccessExpression(x.expression) &&
              x.expression.name.text === 'audit'
            ) {
              const e = x.arguments[0];
              const prop =
                e && ts.isObjectLiteralExpression(e)
                  ? e.properties.find((y) => y.name && ts.isIdentifier(y.name) && y.name.text === 'detail')
                  : undefined;
              entries.push(
                prop && ts.isPropertyAssignment(prop)
                  ? checker.getTypeAtLocation(prop.initializer)
                  : prop && ts.isShorthandPropertyAssignment(prop)
                    ? checker.getTypeAtLocation(prop.name)
                    : undefined,
              );
            }
            ts.forEachChild(x, findAudits);
          };
          if (write) findAudits(write);
          const ok = callee === 'runCommand' ? entries.some(hasBeforeAfter) : hasBeforeAfter(d);
          if (!ok) out.push({ where: at(n), problem: 'update without before/after' });
        }
      }
    }
    // A document's `{ code, detail }` answer from `write`, and the detail its `remove` answers.
    if (ts.isObjectLiteralExpression(n)) {
      const names = n.properties.map((x) => (x.name && ts.isIdentifier(x.name) ? x.name.text : ''));
      if (names.includes('code') && names.includes('detail')) {
        const t = checker.getTypeAtLocation(n).getProperty('detail');
        if (t) detailKeys(checker.getTypeOfSymbol(t), at(n));
      }
    }
    // An update's before/after names every column the update sets (a change of any field shows).
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const sets: ts.ObjectLiteralExpression[] = [];
      const afters: ts.ObjectLiteralExpression[] = [];
      const scan = (x: ts.Node): void => {
        if (x !== n && ts.isFunctionLike(x)) return;
        if (ts.isCallExpression(x) && ts.isIdentifier(x.expression)) {
          const arg = x.arguments[x.expression.text === 'updateVersioned' ? 4 : -1];
          if (arg && ts.isObjectLiteralExpression(arg)) sets.push(arg);
        }
        // A command's versioned update: `w.update(table, where, values)`.
        if (
          ts.isCallExpression(x) &&
          ts.isPropertyAccessExpression(x.expression) &&
          x.expression.name.text === 'update' &&
          x.arguments.length === 3
        ) {
          const arg = x.arguments[2];
          if (arg && ts.isObjectLiteralExpression(arg)) sets.push(arg);
        }
        if (
          ts.isPropertyAssignment(x) &&
          ts.isIdentifier(x.name) &&
          x.name.text === 'after' &&
          ts.isObjectLiteralExpression(x.initializer)
        )
          afters.push(x.initializer);
        ts.forEachChild(x, scan);
      };
      scan(n.body);
      const keys = (o: ts.ObjectLiteralExpression) =>
        o.properties.flatMap((x) => (x.name && ts.isIdentifier(x.name) ? [x.name.text] : []));
      if (sets.length && afters.length) {
        const recorded = new Set(afters.flatMap(keys));
        for (const k of sets.flatMap(keys))
          if (!recorded.has(k)) out.push({ where: at(n), problem: `before/after misses ${k}` });
      }
    }
    if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && n.name.text === 'remove') {
      const fn = checker.getTypeAtLocation(n.initializer);
      for (const sig of fn.getCallSignatures()) {
        const r = checker.getAwaitedType(sig.getReturnType());
        if (r) detailKeys(r, at(n));
      }
    }
    ts.forEachChild(n, visit);
  };
  for (const sf of p.getSourceFiles()) if (sf.fileName.startsWith(path.join(root, 'src'))) visit(sf);
  return out;
}

describe('audit labels', () => {
  it('labels every entity, action, detail key and literal value the server audits', () => {
    const found = walk();
    expect(found.map((f) => `${f.problem} (${f.where})`)).toEqual([]);
  }, 120_000);

  it('labels every document type as an audit entity', () => {
    expect(DOC_TYPE_KEYS.filter((t) => !auditEntityLabel(t))).toEqual([]);
  });
});
