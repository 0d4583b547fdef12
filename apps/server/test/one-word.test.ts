import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * One thing, one word on every screen, export, print and message (docs/operations.md "One word for
 * one thing"): a prepayment is 前期款, never 预付款; the fee taken up front is 前置手续费, never a bare
 * 手续费 (手续费率 and 手续费收入 name other things). Reads every string and JSX text the product
 * ships (comments and tests aside) and fails on the other word.
 */
const repo = resolve(import.meta.dirname, '../../..');
const ROOTS = ['apps/web/src', 'apps/server/src', 'packages/contract/src'];
const SHIPPED = /\.tsx?$/;
const NOT_SHIPPED = /\.test\.tsx?$|\.d\.ts$|\/testing\/|\/test\/|testkit|fixtures/;

const WRONG: { word: string; pattern: RegExp }[] = [
  { word: '预付款 (前期款)', pattern: /预付款/ },
  { word: '手续费 (前置手续费)', pattern: /(?<!前置)手续费(?![率收])/ },
];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : files(p);
    return SHIPPED.test(p) && !NOT_SHIPPED.test(p) ? [p] : [];
  });
}

function parse(file: string, code: string): ts.SourceFile {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return ts.createSourceFile(file, code, ts.ScriptTarget.Latest, false, kind);
}

/** The texts a file ships: its string and template literals and its JSX text (no comments). */
function texts(sf: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteralLike(n) || ts.isTemplateLiteralToken(n) || ts.isJsxText(n))
      if (n.text) out.push(n.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('one word for one thing', () => {
  it('finds the pattern it looks for (a check that could not fail would prove nothing)', () => {
    const found = texts(
      parse(
        'probe.tsx',
        "const a = '预付款'; const b = <span>手续费</span>; const c = `${a}前置手续费`; // 预付款 in a comment",
      ),
    );
    expect(found).toEqual(['预付款', '手续费', '前置手续费']);
    expect(found.filter((t) => WRONG.some((w) => w.pattern.test(t)))).toEqual(['预付款', '手续费']);
  });

  it('names a prepayment 前期款 and the up-front fee 前置手续费 in every shipped text', () => {
    const found: string[] = [];
    for (const root of ROOTS)
      for (const file of files(resolve(repo, root)))
        for (const text of texts(parse(file, readFileSync(file, 'utf8'))))
          for (const w of WRONG)
            if (w.pattern.test(text)) found.push(`${relative(repo, file)}: 「${text.trim()}」 → ${w.word}`);
    expect(found).toEqual([]);
  }, 120_000);
});
