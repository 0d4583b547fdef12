/** The release's package.json (runtime dependencies only) and its lock cut from the repository's. */
export function releaseManifest(): { pkg: Record<string, unknown>; lock: Record<string, unknown> };
/** Writes the production folder at `out` from the built server (and the web unless `web: false`). */
export function writeRelease(out: string, options?: { web?: boolean }): void;
