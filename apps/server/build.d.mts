/** Bundles one server entry (relative to apps/server or absolute) into a file under dist/. */
export function bundleServer(entry: string, outfile: string): Promise<void>;
/** dist/start.cjs: the production entry that sizes libuv's thread pool, then imports dist/main.js. */
export function bundleStart(): Promise<void>;
