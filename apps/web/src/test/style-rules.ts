/**
 * A cheaper `getComputedStyle` for jsdom, with the same answers (bench/README.md "Fourteenth pass").
 *
 * jsdom computes an element's style by checking every rule of every style sheet against it
 * (`@asamuzakjp/dom-selector`'s `check`), and Testing Library's role queries ask for the style of
 * each element and its ancestors (is it hidden?) on every poll of a `findByRole`. antd injects
 * ≈ 1,500 rules, more distinct selectors than dom-selector's cache holds (1,024, least recently
 * used, visited in the same order each time: every check misses it and parses its selector again),
 * so one antd screen's role query costs seconds of CPU. Most of those rules cannot match the
 * element at hand: their subject (the compound after the last combinator) names a class the
 * element does not have. Such a rule is answered "no match" here without dom-selector; every other
 * rule goes to dom-selector as before. A selector this cannot read for certain (escapes, quotes,
 * namespaces, nesting, a class name outside [A-Za-z0-9_-]) always goes to dom-selector. Should
 * jsdom's internals move (the document's `_domSelector`), nothing is put in front: the same
 * answers, at the old cost.
 */

/** Per selector: the classes each alternative's subject requires; `null` when one requires none or it is not read. */
const required = new Map<string, string[][] | null>();

const COMBINATOR = /[\s>+~]/;
const CLASS_CHAR = /[A-Za-z0-9_-]/;
/** What may follow a class name inside a compound selector. */
const AFTER_CLASS = /[.#:[]/;

/** The places of a selector's characters outside brackets and parentheses; `null` when they do not pair. */
function topLevel(selector: string): number[] | null {
  const out: number[] = [];
  let depth = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0) out.push(i);
    if (depth < 0) return null;
  }
  return depth === 0 ? out : null;
}

/** The alternatives of a selector list (its top-level commas); `null` when not read. */
function alternatives(selector: string): string[] | null {
  const commas = topLevel(selector)?.filter((i) => selector[i] === ',');
  if (!commas) return null;
  return [-1, ...commas].map((at, k) => selector.slice(at + 1, commas[k] ?? selector.length));
}

/** The classes the subject compound of one complex selector names at its top level; `null` if not read. */
function subjectClasses(complex: string): string[] | null {
  const s = complex.trim();
  const places = topLevel(s);
  if (!places) return null;
  const subject = Math.max(-1, ...places.filter((i) => COMBINATOR.test(s[i]!))) + 1;
  const classes: string[] = [];
  for (const i of places) {
    if (i < subject || s[i] !== '.') continue;
    let j = i + 1;
    while (j < s.length && CLASS_CHAR.test(s[j]!)) j++;
    if (j === i + 1 || (j < s.length && !AFTER_CLASS.test(s[j]!))) return null;
    classes.push(s.slice(i + 1, j));
  }
  return classes;
}

function requiredClasses(selector: string): string[][] | null {
  if (required.has(selector)) return required.get(selector)!;
  let result: string[][] | null = null;
  if (!/[\\"'|&]/.test(selector)) {
    const each = alternatives(selector)?.map(subjectClasses) ?? [null];
    // An alternative that requires no class (or is not read) may match any element.
    if (each.every((c) => c !== null && c.length > 0)) result = each as string[][];
  }
  required.set(selector, result);
  return result;
}

interface ElementImpl {
  getAttributeNS(namespace: string | null, name: string): string | null;
}
type Check = (selector: string, node: ElementImpl, opt?: object) => unknown;

const classSets = new WeakMap<ElementImpl, { attr: string; set: Set<string> }>();
function classesOf(node: ElementImpl): Set<string> {
  const attr = node.getAttributeNS(null, 'class') ?? '';
  const kept = classSets.get(node);
  if (kept && kept.attr === attr) return kept.set;
  const set = new Set(attr.split(/[\t\n\f\r ]+/).filter(Boolean));
  classSets.set(node, { attr, set });
  return set;
}

const WRAPPED = Symbol.for('portal.test.styleRulePrefilter');

/** Puts the pre-filter in front of the document's dom-selector `check` (what jsdom's style cascade calls). */
export function prefilterStyleRules(doc: Document): void {
  // Class selectors are case-insensitive in quirks mode: there, every rule goes to dom-selector.
  if (doc.compatMode !== 'CSS1Compat') return;
  const implSymbol = Object.getOwnPropertySymbols(doc).find((s) => s.description === 'impl');
  const impl = implSymbol
    ? (doc as unknown as Record<symbol, { _domSelector?: Record<PropertyKey, unknown> }>)[implSymbol]
    : undefined;
  const selector = impl?._domSelector;
  if (!selector || typeof selector.check !== 'function' || selector[WRAPPED]) return;
  const check = selector.check as Check;
  selector.check = ((text: string, node: ElementImpl, opt?: object) => {
    const alts =
      typeof text === 'string' && typeof node?.getAttributeNS === 'function' ? requiredClasses(text) : null;
    if (alts) {
      const have = classesOf(node);
      if (!alts.some((classes) => classes.every((c) => have.has(c)))) {
        return { match: false, ast: null, pseudoElement: null };
      }
    }
    return check(text, node, opt);
  }) as Check;
  selector[WRAPPED] = true;
}
