import { queryOptions } from '@tanstack/react-query';
import {
  DEBTOR_PATHS,
  type Concentration,
  type DebtorLineRow,
  type DebtorLineView,
  type UnmatchedRow,
} from '@portal/contract/debtor';
import { debtorKeys } from '../../shared/debtor/api';
import { post } from '../../shared/request/http';

/** The debtor calls as the screens use them (docs/credit.md "Debtors"). */
const debtorApi = {
  unmatched: () => post<UnmatchedRow[]>(DEBTOR_PATHS.unmatched),
  lines: () => post<DebtorLineRow[]>(DEBTOR_PATHS.lines),
  line: (bizCode: string) => post<DebtorLineView>(DEBTOR_PATHS.line, undefined, { query: { bizCode } }),
  concentration: () => post<Concentration>(DEBTOR_PATHS.concentration),
};

/**
 * The debtor reads as query options, under the shared `debtorKeys.all` (the pickers' dict too), so
 * one refresh after a change covers every debtor read.
 */
export const debtorQueries = {
  unmatched: () => queryOptions({ queryKey: [...debtorKeys.all, 'unmatched'], queryFn: debtorApi.unmatched }),
  lines: () => queryOptions({ queryKey: [...debtorKeys.all, 'lines'], queryFn: debtorApi.lines }),
  /** One line's ledger, once a line is opened. */
  line: (bizCode: string | null) =>
    queryOptions({
      queryKey: [...debtorKeys.all, 'line', bizCode],
      queryFn: () => debtorApi.line(bizCode!),
      enabled: bizCode !== null,
    }),
  concentration: () =>
    queryOptions({ queryKey: [...debtorKeys.all, 'concentration'], queryFn: debtorApi.concentration }),
};
