import { queryOptions } from '@tanstack/react-query';
import type { DocKind } from '../workflow/doc-kind';

/**
 * The reads of a contract-closing document's editor (回购单, 核销坏账: ContractClosureEditor), under
 * the document kind's own key so that its saves and decisions refresh them.
 */
export const closureQueries = {
  /** The saved document being edited. */
  edit: <V>(kind: DocKind, code: string, view: (code: string) => Promise<V>) =>
    queryOptions({
      queryKey: [...kind.queryKey, 'edit', code],
      queryFn: () => view(code),
      enabled: !!code,
    }),
  /** The server's quote for a contract on a date; its refusal is shown, not retried. */
  quote: <Q>(
    kind: DocKind,
    contBizCode: string | undefined,
    day: string | undefined,
    quote: (contBizCode: string, date: string) => Promise<Q>,
    ready: boolean,
  ) =>
    queryOptions({
      queryKey: [...kind.queryKey, 'quote', contBizCode, day],
      queryFn: () => quote(contBizCode!, day!),
      enabled: ready,
      retry: false,
    }),
};
