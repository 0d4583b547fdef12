/**
 * The print-template language: logic-less placeholders over a document's fields, escaped always.
 *
 * - `{{name}}` prints a field, HTML-escaped (there is no unescaped form);
 * - `{{#list}}…{{/list}}` repeats its body for every row of a list (the plan table), or renders it
 *   once when a field is non-empty; `{{^name}}…{{/name}}` renders when it is empty;
 * - `{{! note }}` is a comment.
 *
 * Names are letters, digits and `_`; inside a section a name is looked up in the row first, then
 * in the document. The same engine renders on the server (print, PDF) and in the editor's preview.
 */

export type PrintValue = string | readonly PrintRow[];
export type PrintRow = Readonly<Record<string, string>>;
export type PrintData = Readonly<Record<string, PrintValue>>;

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'var'; name: string; line: number }
  | { kind: 'section'; name: string; inverted: boolean; children: Node[]; line: number };

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

const TAG = /\{\{([\s\S]*?)\}\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function lineOf(source: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (source.charCodeAt(i) === 10) line++;
  return line;
}

/** Parses a template; throws a TemplateError naming the line of the first mistake. */
export function parseTemplate(source: string): Node[] {
  const root: Node[] = [];
  const stack: { name: string; children: Node[]; line: number }[] = [];
  let current = root;
  let last = 0;
  for (const m of source.matchAll(TAG)) {
    const index = m.index;
    if (index > last) current.push({ kind: 'text', text: source.slice(last, index) });
    last = index + m[0].length;
    const line = lineOf(source, index);
    const raw = m[1]!.trim();
    const sigil = raw.charAt(0);
    if (sigil === '!') continue;
    const name = '#^/'.includes(sigil) ? raw.slice(1).trim() : raw;
    if (!NAME.test(name)) throw new TemplateError(`模板第${line}行：无法识别的占位符 {{${raw}}}`);
    if (sigil === '#' || sigil === '^') {
      const children: Node[] = [];
      current.push({ kind: 'section', name, inverted: sigil === '^', children, line });
      stack.push({ name, children: current, line });
      current = children;
    } else if (sigil === '/') {
      const open = stack.pop();
      if (!open) throw new TemplateError(`模板第${line}行：{{/${name}}} 没有对应的开始标记`);
      if (open.name !== name) {
        throw new TemplateError(
          `模板第${line}行：{{/${name}}} 与第${open.line}行的 {{#${open.name}}} 不匹配`,
        );
      }
      current = open.children;
    } else {
      current.push({ kind: 'var', name, line });
    }
  }
  if (source.indexOf('{{', last) >= 0) {
    throw new TemplateError(`模板第${lineOf(source, source.indexOf('{{', last))}行：占位符缺少 }}`);
  }
  if (last < source.length) current.push({ kind: 'text', text: source.slice(last) });
  const open = stack.pop();
  if (open) throw new TemplateError(`模板第${open.line}行：{{#${open.name}}} 缺少结束标记 {{/${open.name}}}`);
  return root;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

type Scope = readonly (PrintData | PrintRow)[];

function lookup(scope: Scope, name: string): PrintValue | undefined {
  for (let i = scope.length - 1; i >= 0; i--) {
    const frame = scope[i]!;
    if (Object.prototype.hasOwnProperty.call(frame, name)) return frame[name];
  }
  return undefined;
}

function renderNodes(nodes: readonly Node[], scope: Scope, out: string[]): void {
  for (const node of nodes) {
    if (node.kind === 'text') {
      out.push(node.text);
    } else if (node.kind === 'var') {
      const value = lookup(scope, node.name);
      if (typeof value === 'string') out.push(escapeHtml(value));
    } else {
      const value = lookup(scope, node.name);
      const empty = value === undefined || value.length === 0;
      if (node.inverted) {
        if (empty) renderNodes(node.children, scope, out);
      } else if (Array.isArray(value)) {
        for (const row of value as readonly PrintRow[]) renderNodes(node.children, [...scope, row], out);
      } else if (!empty) {
        renderNodes(node.children, scope, out);
      }
    }
  }
}

/** Renders a template with a document's data; every printed value is HTML-escaped. */
export function renderTemplate(source: string, data: PrintData): string {
  const out: string[] = [];
  renderNodes(parseTemplate(source), [data], out);
  return out.join('');
}

/** What a template may refer to: the document's fields, and each list with its row fields. */
export interface TemplateVocabulary {
  fields: ReadonlySet<string>;
  lists: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * The placeholders of a template that its document type does not have, each once, in order of
 * appearance (so a misspelt field is refused on save rather than printing blank).
 */
export function unknownPlaceholders(source: string, vocabulary: TemplateVocabulary): string[] {
  const unknown = new Set<string>();
  const walk = (nodes: readonly Node[], rowFields: readonly ReadonlySet<string>[]) => {
    for (const node of nodes) {
      if (node.kind === 'text') continue;
      const known =
        vocabulary.fields.has(node.name) ||
        vocabulary.lists.has(node.name) ||
        rowFields.some((f) => f.has(node.name));
      if (!known) unknown.add(node.name);
      if (node.kind === 'section') {
        const row = vocabulary.lists.get(node.name);
        walk(node.children, row && !node.inverted ? [...rowFields, row] : rowFields);
      }
    }
  };
  walk(parseTemplate(source), []);
  return [...unknown];
}
