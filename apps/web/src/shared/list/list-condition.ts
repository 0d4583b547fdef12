import { create } from 'zustand';
import { ownerPath } from '../routing/route-table';

/**
 * List-condition rule: every route has a key (the list page it belongs to, so a list and
 * its editor/view pages share one). Keys visited since the last reset accumulate; once more than
 * one has accumulated, the saved search condition is cleared and only the new key remains.
 */
export interface ListCondition {
  filters: Record<string, unknown>;
  pageNum: number;
  pageSize: number;
  /** The search form's raw values (before `toFilters`), to refill the form. */
  formValues?: Record<string, unknown>;
}

export interface ListConditionState {
  keys: string[];
  conditions: Record<string, ListCondition>;
}

export function listConditionKey(path: string): string {
  return ownerPath(path);
}

/** The pure rule, applied on every navigation. */
export function applyRouteKey(state: ListConditionState, key: string): ListConditionState {
  if (state.keys.includes(key)) return state;
  const keys = [...state.keys, key];
  if (keys.length > 1) return { keys: [key], conditions: {} };
  return { keys, conditions: state.conditions };
}

export function saveConditionIn(
  state: ListConditionState,
  key: string,
  condition: ListCondition,
): ListConditionState {
  return { ...state, conditions: { ...state.conditions, [key]: condition } };
}

export const useListConditionStore = create<ListConditionState>()(() => ({ keys: [], conditions: {} }));

export function trackRouteForListCondition(path: string): void {
  const next = applyRouteKey(useListConditionStore.getState(), listConditionKey(path));
  if (next !== useListConditionStore.getState()) useListConditionStore.setState(next, true);
}

export function saveListCondition(key: string, condition: ListCondition): void {
  useListConditionStore.setState((s) => saveConditionIn(s, key, condition), true);
}

export function readListCondition(key: string): ListCondition | undefined {
  return useListConditionStore.getState().conditions[key];
}

export function clearListConditions(): void {
  useListConditionStore.setState({ keys: [], conditions: {} }, true);
}
