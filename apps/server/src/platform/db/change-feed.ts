import type pg from 'pg';

/**
 * Notices of committed changes, for in-process caches that must not outlive a write on any
 * instance. Every pooled connection LISTENs, so the connection that commits a change gets its
 * notice before its COMMIT returns: this process drops a cached answer before the writing call
 * answers, and other instances a moment later.
 */
export interface ChangeFeed {
  /**
   * fn runs on each notice of the topic, and also whenever notices may have been missed (the last
   * listening connection went away): either way whatever was cached may be stale.
   */
  on(topic: string, fn: () => void): void;
  /** Whether notices are being received now; cache nothing while not. */
  live(): boolean;
}

export const CHANGE_CHANNEL = 'portal_change';

export class Notices implements ChangeFeed {
  private readonly handlers = new Map<string, (() => void)[]>();
  /** Connections whose LISTEN is in effect (PGlite's single session counts as one). */
  private listening = 0;
  on(topic: string, fn: () => void): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), fn]);
  }
  live(): boolean {
    return this.listening > 0;
  }
  notice(topic: string): void {
    for (const fn of this.handlers.get(topic) ?? []) fn();
  }
  started(): void {
    this.listening++;
  }
  stopped(): void {
    if (--this.listening > 0) return;
    for (const fns of this.handlers.values()) for (const fn of fns) fn();
  }
}

/**
 * Every pooled connection LISTENs before the pool hands it out (pg-pool's onConnect hook), and
 * counts while it lives.
 */
export function listenOnConnect(notices: Notices): (client: pg.ClientBase) => Promise<void> {
  return async (client) => {
    client.on('notification', (n) => {
      if (n.channel === CHANGE_CHANNEL) notices.notice(n.payload ?? '');
    });
    await client.query(`listen ${CHANGE_CHANNEL}`);
    notices.started();
    let counted = true;
    const stop = () => {
      if (counted) notices.stopped();
      counted = false;
    };
    client.on('end', stop);
    client.on('error', stop);
  };
}
