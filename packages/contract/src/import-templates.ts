import { z } from 'zod';
import { INCOME_EXCEL_COLUMNS } from './accounts';

/**
 * The xlsx imports' 下载模板 (docs/protocol.md "Imports"): each import's header row, in the order a
 * template shows it (the bank statement's is accounts.ts' INCOME_EXCEL_COLUMNS). The server's import
 * readers take their column names from these lists, so a
 * downloaded template is always read back column for column. Required columns are marked by the
 * readers; the template names every column the import reads.
 */
export const IMPORT_TEMPLATES = {
  /** 导入银行流水 (来款). */
  income: {
    fileName: '银行流水导入模板.xlsx',
    headers: INCOME_EXCEL_COLUMNS,
  },
  /** 导入应收账款 (合同, 授信的发票). */
  receivables: {
    fileName: '应收账款导入模板.xlsx',
    headers: ['发票代码', '发票号码', '开票日期', '发票金额', '债务人名称', '债务人编号', '到期日', '备注'],
  },
  /** 导入还款计划 (自定义计划). */
  plan: { fileName: '还款计划导入模板.xlsx', headers: ['还款日', '本金'] },
} as const satisfies Record<string, { fileName: string; headers: readonly string[] }>;

export type ImportKind = keyof typeof IMPORT_TEMPLATES;
export const IMPORT_KINDS = Object.keys(IMPORT_TEMPLATES) as [ImportKind, ...ImportKind[]];

/** Answers the template xlsx (a header row only); any signed-in user, it holds no data. */
export const IMPORT_TEMPLATE_PATH = '/admin/portal/third/file/importTemplate';

export const importTemplateSchema = z.object({
  kind: z.enum(IMPORT_KINDS, { error: '模板类型取值不正确' }),
});
