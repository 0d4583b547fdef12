/** Bundles one server entry (relative to apps/server or absolute) into a file under dist/. */
export function bundleServer(entry: string, outfile: string): Promise<void>;
