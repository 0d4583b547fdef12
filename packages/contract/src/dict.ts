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
