import { normalizeDictItems } from '@portal/contract/dict';
import { post, type RequestOptions } from './http';

/**
 * A dictionary call (a path ending in /dict): its items as `{ code, label }`, whatever spelling of key and label
 * the answer uses (CODE/dictValue, dictLabel/FLAG/flag/mark/MARK; docs/protocol.md "Values on the wire").
 */
export async function postDict<T extends { code: string; label: string }>(
  path: string,
  body?: unknown,
  opts?: RequestOptions,
): Promise<T[]> {
  return normalizeDictItems<T>(await post<unknown>(path, body, opts));
}
