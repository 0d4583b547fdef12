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
  let built: Prepared<R> | undefined;
  return (ex, values) => {
    built ??= build(ex).prepare(`pre_${name}`);
    const bound = Object.create(built, { client: { value: driverClient(ex) } }) as Prepared<R>;
    return bound.execute(values);
  };
}

/** The driver connection (or pool) an executor's statements go to: drizzle's session's client. */
function driverClient(ex: Executor): unknown {
  // drizzle marks the session internal; both drivers' sessions hold their client as `client`.
  const client = (ex as unknown as { session?: { client?: unknown } }).session?.client;
  if (!client) throw new Error('prebuilt: the executor has no driver client');
  return client;
}
