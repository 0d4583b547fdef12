/** The options of a Select from a record of labels by value (CHANGE_TYPE_LABELS, …), in its order. */
export function labelOptions<V extends string>(
  labels: Readonly<Record<V, string>>,
): { value: V; label: string }[] {
  return (Object.entries(labels) as [V, string][]).map(([value, label]) => ({ value, label }));
}
