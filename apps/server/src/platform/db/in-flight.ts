/**
 * The statements running right now, for the slow-request watchdog (platform/http/watchdog.ts): a
 * call that has not answered after 10 s is logged with what the database is doing at that moment.
 */
export interface InFlightStatement {
  sql: string;
  ageMs: number;
}

export class InFlightQueries {
  private readonly running = new Map<number, { sql: unknown; started: number }>();
  private next = 0;

  /**
   * Lists `sql` as running until the returned function is called. Kept as given and shortened only
   * when listed: every statement of every call passes here, and a list is rare (bench/README.md
   * "The envelope's cost": the whitespace rewrite of each statement's text was 0.6 % of the server's CPU).
   */
  begin(sql: unknown): () => void {
    const id = this.next++;
    this.running.set(id, { sql, started: Date.now() });
    return () => this.running.delete(id);
  }

  /** Runs `run`, listed as `sql` until it settles. */
  async track<T>(sql: unknown, run: () => Promise<T>): Promise<T> {
    const end = this.begin(sql);
    try {
      return await run();
    } finally {
      end();
    }
  }

  /** How many statements are running. */
  count(): number {
    return this.running.size;
  }

  list(now = Date.now()): InFlightStatement[] {
    return [...this.running.values()].map((q) => ({
      sql: String(q.sql).replace(/\s+/g, ' ').slice(0, 300),
      ageMs: now - q.started,
    }));
  }
}
