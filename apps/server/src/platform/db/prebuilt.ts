import type { Executor } from './client';

/** What drizzle's `prepare` answers: a query built once, run with the placeholders' values. */
interface Prepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/**
 * A drizzle query built once per process and run on any executor with new values (its variable
 * parts are `sql.placeholder`s): drizzle's builder otherwise builds the same text, parameter list
 * and row mapping again on every call, most of a hot statement's CPU in node (bench/README.md
 * "Write-off contention: eleventh pass"). Drizzle's own `prepare` binds the query to the session
 * it was built on, and a transaction is a session of its own; so the query prepared on the first
 * executor is run on each later one by a view of it whose driver client is that executor's (the
 * driver client is the one field of drizzle's prepared query that names its session). The name
 * makes it a server-side prepared statement, parsed once per connection (named-statements.ts).
 */
export function prebuilt<R>(
  name: string,
  build: (ex: Executor) => { prepare(name: string): Prepared<R> },
): (ex: Executor, values: Record<string, unknown>) => Promise<R> {
  // Two queries under one name would be one server-side statement on a connection.
  if (NAMES.has(name)) throw new Error(`prebuilt: the name ${name} is taken`);
  NAMES.add(name);
  // One built query a driver (PGlite and node-postgres build theirs apart; a test process may open
  // both), kept without the connection it was built on, so a closed database is not held by it.
  const built = new Map<unknown, Prepared<R>>();
  return (ex, values) => {
    const client = driverClient(ex);
    const driver = sessionOf(ex).constructor;
    let query = built.get(driver);
    if (!query) {
      query = build(ex).prepare(`pre_${name}`);
      Object.defineProperty(query, 'client', { value: undefined, writable: true });
      built.set(driver, query);
    }
    const bound = Object.create(query, { client: { value: client } }) as Prepared<R>;
    return bound.execute(values);
  };
}

const NAMES = new Set<string>();

/** drizzle's session of an executor: internal to drizzle, the same shape in both drivers. */
function sessionOf(ex: Executor): { client?: unknown } {
  const session = (ex as unknown as { session?: { client?: unknown } }).session;
  if (!session) throw new Error('prebuilt: the executor has no session');
  return session;
}

/** The driver connection (or pool) an executor's statements go to: drizzle's session's client. */
function driverClient(ex: Executor): unknown {
  const client = sessionOf(ex).client;
  if (!client) throw new Error('prebuilt: the executor has no driver client');
  return client;
}
