/**
 * Server-side prepared statements for the statements the server sends again and again
 * (docs/architecture.md "Prepared statements"). node-postgres sends a statement with a name once
 * per connection (Parse) and from then on only binds and executes it, so PostgreSQL skips the
 * parse, analysis and (once its generic plan is chosen) the planning of every later run: on the
 * write-off approval, 42 statements a request pair, most of a backend's CPU per statement
 * (bench/README.md "Write-off contention: prepared statements").
 *
 * A statement is named when it has parameters (those go by the extended protocol anyway; a
 * parameterless text may be a script of several statements, which only the simple protocol runs)
 * and its text has been seen `SEEN_BEFORE_NAMING` times. Names are given per process, by text, and
 * at most `MAX_NAMED` of them: every connection keeps each statement it prepared until it closes,
 * so the names are bounded, not the texts (a list's `in ($1, …, $n)` differs by n).
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly maxNamed = MAX_NAMED,
    private readonly seenBefore = SEEN_BEFORE_NAMING,
  ) {}

  /** The name to prepare `text` under, or undefined to send it unnamed. */
  nameOf(text: string): string | undefined {
    const name = this.names.get(text);
    if (name !== undefined || this.names.size >= this.maxNamed) return name;
    const count = (this.seen.get(text) ?? 0) + 1;
    if (count < this.seenBefore) {
      // Counting stops at the bound too, so one-off texts cannot grow the map without end.
      if (this.seen.size < MAX_COUNTED) this.seen.set(text, count);
      return undefined;
    }
    this.seen.delete(text);
    const given = `portal_${this.names.size + 1}`;
    this.names.set(text, given);
    return given;
  }

  /** How many statements have a name (tests). */
  count(): number {
    return this.names.size;
  }
}

/**
 * A query's first argument as node-postgres takes it, named when `names` says so: a config object
 * gets a copy with the name, a text with values becomes a config. Anything else is returned as is
 * (a named or unparameterised statement, a Submittable such as a cursor).
 */
export function withName(names: StatementNames, query: unknown, values: unknown): unknown {
  if (typeof query === 'string') {
    if (!hasValues(values)) return query;
    const name = names.nameOf(query);
    return name ? { text: query, name } : query;
  }
  if (!isPlainConfig(query) || query.name) return query;
  if (!hasValues(values ?? query.values)) return query;
  const name = names.nameOf(query.text);
  return name ? { ...query, name } : query;
}

const hasValues = (values: unknown) => Array.isArray(values) && values.length > 0;

function isPlainConfig(q: unknown): q is { text: string; name?: string; values?: unknown } {
  if (typeof q !== 'object' || q === null) return false;
  const c = q as { text?: unknown; submit?: unknown };
  return typeof c.text === 'string' && typeof c.submit !== 'function';
}

/**
 * Per process; each pooled connection (20 by default) holds at most this many prepared statements
 * with their plans. The write-off's save and approval alone use about 40.
 */
const MAX_NAMED = 300;
/** A text seen this many times is worth its Parse once per connection. */
const SEEN_BEFORE_NAMING = 2;
/** Texts counted towards their naming at most. */
const MAX_COUNTED = 5000;
