import { addDays } from '@portal/contract/plan/dates';

/** Where each figure clicks through: the contract list filtered the way the figure was summed. */
export const CONTRACT_LIST = '/factoring/contract/info';

export function contractListUrl(filter: Record<string, string>): string {
  return `${CONTRACT_LIST}?${new URLSearchParams(filter).toString()}`;
}

export const overdueUrl = () => contractListUrl({ overdue: 'true' });

export const dueWithinUrl = (asOf: string, days: number) =>
  contractListUrl({ itemDueFrom: asOf, itemDueTo: addDays(asOf, days) });

export const effectiveUrl = () => contractListUrl({ status: 'effective' });
