import { update, type UpdateOptions } from '../request/http';

/**
 * An update call (with its optional confirmation) followed by `after` (close an editor, …) when the
 * answer is ok; the lists refresh through the update itself. Errors are already warned by the
 * request layer; answers whether it succeeded.
 */
export async function updateThen(
  path: string,
  body: unknown,
  opts: UpdateOptions,
  after?: () => unknown,
): Promise<boolean> {
  const r = await update(path, body, opts).catch(() => null);
  if (!r?.ok) return false;
  await after?.();
  return true;
}
