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
import { openHtmlPreview } from '../../shared/print/print-api';

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
