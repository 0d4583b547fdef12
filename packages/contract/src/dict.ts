/**
 * Dictionaries (docs/protocol.md "Values on the wire"): one list of `{ type, code, label }` per call,
 * filtered by type.
 */
export interface DictItem {
  type: string;
  code: string;
  label: string;
}

/** The items of one dictionary type from its label table. */
export function dictItems(type: string, labels: Readonly<Record<string, string>>): DictItem[] {
  return Object.entries(labels).map(([code, label]) => ({ type, code, label }));
}

/** The key and label spellings a dictionary item may carry (docs/protocol.md "Values on the wire"). */
const CODE_KEYS = ['code', 'CODE', 'dictValue'] as const;
const LABEL_KEYS = ['label', 'dictLabel', 'FLAG', 'flag', 'mark', 'MARK'] as const;

/**
 * A dictionary answer as `{ code, label }` items, whichever spelling it uses: the key from `code`,
 * `CODE` or `dictValue`, the label from `label`, `dictLabel`, `FLAG`, `flag`, `mark` or `MARK`
 * (first present wins); the item's other fields (`type`, …) are kept. An item without a key is
 * dropped; one without a label shows its key.
 */
export function normalizeDictItems<T extends { code: string; label: string }>(raw: unknown): T[] {
  if (!Array.isArray(raw)) return [];
  const out: T[] = [];
  for (const item of raw as unknown[]) {
    if (!item || typeof item !== 'object') continue;
    const rec = item as Record<string, unknown>;
    const pick = (keys: readonly string[]) => {
      const v = keys.map((k) => rec[k]).find((x) => x !== undefined && x !== null && x !== '');
      return v === undefined ? undefined : String(v);
    };
    const code = pick(CODE_KEYS);
    if (code === undefined) continue;
    out.push({ ...rec, code, label: pick(LABEL_KEYS) ?? code } as unknown as T);
  }
  return out;
}
