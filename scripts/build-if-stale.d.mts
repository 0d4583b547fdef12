/** What `npm run build` reads and writes, relative to the repository. */
export const SOURCES: readonly string[];
export const OUTPUTS: readonly string[];
/** Why a build is needed (a missing or older output), or null when the outputs are current. */
export function staleReason(
  root?: string,
  sources?: readonly string[],
  outputs?: readonly string[],
): string | null;
