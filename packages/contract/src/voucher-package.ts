import { z } from 'zod';
import { ACCOUNT_ROLES, PERIOD_PATTERN, type AccountRole } from './voucher';
import { bool, int, oneOf } from './fields';

/**
 * 凭证引入: a month's vouchers in the import layout of the accounting package the office keeps its
 * books in, chosen per export, with the package's account codes from the 科目映射
 * (docs/accounting.md "Export to the accounting package").
 */
export const PACKAGE_PATHS = {
  /** The package account codes of every role (menu ft-voucher-account). */
  accounts: '/ft/api/voucher/package/account/list',
  /** body packageAccountSaveSchema: a role's package account codes (button ft-voucher-account:save). */
  accountSave: '/ft/api/voucher/package/account/save',
  /** body packageExportSchema: a month's vouchers as the package's import xlsx (button ft-voucher:export). */
  export: '/ft/api/voucher/package/export',
} as const;

/** 用友 U8 / T+ (凭证引入, 凭证导入) and 金蝶 K/3 Cloud (云星空, 凭证引入). */
export const PACKAGES = ['yonyou', 'kingdee'] as const;
export type AccountingPackage = (typeof PACKAGES)[number];
export const PACKAGE_LABELS: Record<AccountingPackage, string> = {
  yonyou: '用友 U8 / T+',
  kingdee: '金蝶 K/3 Cloud',
};

/** The roles whose lines carry no customer or contract auxiliary unless the office says so. */
export const PACKAGE_NO_AUX_ROLES: readonly AccountRole[] = ['bank', 'advance'];

export interface PackageAccountRow {
  role: AccountRole;
  /** Our account code and name (the 科目映射). */
  code: string;
  name: string;
  /** The package's account code; null: the same as ours. */
  yonyouCode: string | null;
  kingdeeCode: string | null;
  /** Whether the lines of this account carry the customer (and, for U8 / T+, the contract) auxiliary. */
  aux: boolean;
  version: number;
}

const optionalPackageCode = (label: string, pattern: RegExp, message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v) || null,
    z
      .string({ error: `${label}取值不正确` })
      .regex(pattern, message)
      .nullable(),
  );

/** U8 / T+ account codes are digits by the office's 编码方案; K/3 Cloud separates the levels with dots. */
export const YONYOU_CODE_PATTERN = /^\d{4,15}$/;
export const KINGDEE_CODE_PATTERN = /^\d{4}(\.\d{1,6}){0,5}$/;

export const packageAccountSaveSchema = z.object({
  role: z.enum(ACCOUNT_ROLES, { error: '科目用途取值不正确' }),
  yonyouCode: optionalPackageCode('用友科目编码', YONYOU_CODE_PATTERN, '用友科目编码应为4至15位数字'),
  kingdeeCode: optionalPackageCode(
    '金蝶科目编码',
    KINGDEE_CODE_PATTERN,
    '金蝶科目编码应为4位数字，下级以“.”分隔（如1135.01）',
  ),
  aux: bool('辅助核算'),
  version: int('版本号', 0, 2_147_483_647),
});
export type PackageAccountSave = z.input<typeof packageAccountSaveSchema>;

/** K/3 Cloud's 账簿 code: letters, digits, '.', '-' and '_'. */
export const BOOK_CODE_PATTERN = /^[A-Za-z0-9._-]{1,30}$/;

export const packageExportSchema = z
  .object({
    period: z.string({ error: '请选择会计期间' }).regex(PERIOD_PATTERN, '会计期间格式应为YYYY-MM'),
    package: oneOf('财务软件', PACKAGES),
    bookCode: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() : v) || undefined,
      z.string().regex(BOOK_CODE_PATTERN, '账簿编码应为1至30位字母、数字或“.-_”').optional(),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.package === 'kingdee' && !v.bookCode)
      ctx.addIssue({
        code: 'custom',
        path: ['bookCode'],
        message: '请输入账簿编码（金蝶凭证引入须指定账簿）',
      });
  });
export type PackageExportInput = z.input<typeof packageExportSchema>;

export const packageFileName = (pkg: AccountingPackage, period: string) =>
  `凭证引入_${pkg === 'yonyou' ? '用友U8T+' : '金蝶K3Cloud'}_${period}.xlsx`;
