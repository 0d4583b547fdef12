import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  LEDGER_FILE_NAME,
  LEDGER_PATHS,
  STATEMENT_FILE_NAME,
  type LedgerExportQuery,
  type LedgerListInput,
  type LedgerPage,
  type Statement,
  type StatementInput,
} from '@portal/contract/ledger';
import { PRINT_PATHS } from '@portal/contract/print';
import { exportFile, post } from '../../shared/request/http';
import { openHtmlPreview } from '../../shared/print/api';

/** 保理业务台账 and 客户对账单 calls (docs/ledger.md). */
export const ledgerApi = {
  list: (q: LedgerListInput) => post<LedgerPage>(LEDGER_PATHS.list, q),
  export: (q: Partial<LedgerExportQuery>) =>
    exportFile(LEDGER_PATHS.export, q, { fileName: LEDGER_FILE_NAME }),
  statement: (q: StatementInput) => post<Statement>(LEDGER_PATHS.statement, q),
  statementExport: (q: StatementInput) =>
    exportFile(LEDGER_PATHS.statementExport, q, { fileName: STATEMENT_FILE_NAME }),
  /** The standard 对账单 template (or the office's own) as a PDF, downloaded, or as HTML. */
  statementPdf: (q: StatementInput & { custCode: string }) =>
    exportFile(
      PRINT_PATHS.perViewPdf,
      {
        bizType: 'statement',
        docCode: q.custCode,
        contBizCode: q.contBizCode,
        dateFrom: q.dateFrom,
        dateTo: q.dateTo,
        disposition: 'attachment',
      },
      { pdf: true, fileName: `客户对账单-${q.custCode}.pdf` },
    ),
  statementHtml: (q: StatementInput & { custCode: string }) =>
    openHtmlPreview(PRINT_PATHS.perViewHtml, {
      bizType: 'statement',
      docCode: q.custCode,
      contBizCode: q.contBizCode,
      dateFrom: q.dateFrom,
      dateTo: q.dateTo,
    }),
};

/** The keys of the ledger queries. */
const ledgerKeys = {
  all: ['ledger'] as const,
  contractsOf: (custCode: string | undefined) => ['ledger', 'contracts-of', custCode] as const,
  statement: (q: StatementInput | undefined) => ['ledger', 'statement', q] as const,
  portfolio: (filters: Partial<LedgerExportQuery>, paging: { pageNum: number; pageSize: number }) =>
    ['ledger', 'portfolio', filters, paging] as const,
};

/** The ledger reads as query options (`useQuery(ledgerQueries.statement(q))`). */
export const ledgerQueries = {
  /** The contracts of a customer (the statement's contract picker); none chosen: off. */
  contractsOf: (custCode: string | undefined) =>
    queryOptions({
      queryKey: ledgerKeys.contractsOf(custCode),
      queryFn: () => ledgerApi.list({ custCode, pageNum: 1, pageSize: 500 }),
      enabled: !!custCode,
    }),
  /** The statement of the applied conditions; none applied yet: off. */
  statement: (q: StatementInput | undefined) =>
    queryOptions({
      queryKey: ledgerKeys.statement(q),
      queryFn: () => ledgerApi.statement(q!),
      enabled: !!q,
    }),
  /** One page of 保理业务台账; the previous page stays shown while the next loads. */
  portfolio: (filters: Partial<LedgerExportQuery>, paging: { pageNum: number; pageSize: number }) =>
    queryOptions({
      queryKey: ledgerKeys.portfolio(filters, paging),
      queryFn: () => ledgerApi.list({ ...filters, ...paging }),
      placeholderData: keepPreviousData,
    }),
};
