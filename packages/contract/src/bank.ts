import { z } from 'zod';
import { bool, code, oneOf, optionalCode, optionalOneOf, optionalText, text, version } from './fields';
import { listSchema } from './list';

/** Bank accounts (all by bizCode) and the bank dictionary. */
export const BANK_PATHS = {
  list: '/ft/api/bank/list',
  save: '/ft/api/bank/save',
  del: '/ft/api/bank/del',
  view: '/ft/api/bank/view',
  setDefault: '/ft/api/bank/setDefault',
  dict: '/admin/portal/api/bank/dict',
} as const;

/** Whose account: a customer (by compCode) or our own company (本公司). */
export const OWNER_TYPES = ['customer', 'self'] as const;
export type OwnerType = (typeof OWNER_TYPES)[number];
export const OWNER_TYPE_LABELS: Record<OwnerType, string> = { customer: '客户', self: '本公司' };
export const SELF_OWNER_NAME = '本公司';

export const CURRENCIES = ['CNY', 'USD', 'HKD', 'EUR', 'JPY'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const CURRENCY_LABELS: Record<Currency, string> = {
  CNY: '人民币',
  USD: '美元',
  HKD: '港币',
  EUR: '欧元',
  JPY: '日元',
};

/** What the account is used for; one default account per owner and purpose. */
export const PURPOSES = ['collect', 'pay', 'repay', 'settle'] as const;
export type Purpose = (typeof PURPOSES)[number];
export const PURPOSE_LABELS: Record<Purpose, string> = {
  collect: '收款账户',
  pay: '付款账户',
  repay: '还款账户',
  settle: '结算账户',
};

const blank = (v: unknown) => (v === null || v === '' ? undefined : v);

export const ACCOUNT_NO_PATTERN = /^\d{8,30}$/;
/** Account number: digits only, 8 to 30 (blanks typed for readability are dropped). */
export const accountNo = z
  .string({
    error: (i) => (i.input === undefined || i.input === null ? '银行账号不能为空' : '银行账号格式不正确'),
  })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().min(1, '银行账号不能为空').regex(ACCOUNT_NO_PATTERN, '银行账号必须是8到30位数字'));

export const BANK_CODE_PATTERN = /^\d{3}$/;

export const bankSaveSchema = z
  .object({
    bizCode: optionalCode('账户编号'),
    version: version.optional(),
    ownerType: oneOf('账户归属', OWNER_TYPES),
    ownerCode: optionalCode('所属客户'),
    bankCode: z.string({ error: '开户银行不能为空' }).regex(BANK_CODE_PATTERN, '开户银行不正确'),
    branchName: text('开户网点', 100),
    accountName: text('账户名称', 100),
    accountNo,
    currency: oneOf('币种', CURRENCIES).default('CNY'),
    purpose: oneOf('账户用途', PURPOSES),
    isDefault: bool('是否默认').default(false),
    remark: optionalText('备注', 500, { multiline: true }),
  })
  .superRefine((v, ctx) => {
    if (v.ownerType === 'customer' && !v.ownerCode)
      ctx.addIssue({ code: 'custom', path: ['ownerCode'], message: '所属客户不能为空' });
    if (v.ownerType === 'self' && v.ownerCode)
      ctx.addIssue({ code: 'custom', path: ['ownerCode'], message: '本公司账户不能选择所属客户' });
    if (v.bizCode && v.version === undefined)
      ctx.addIssue({ code: 'custom', path: ['version'], message: '版本号不能为空' });
  });
export type BankSave = z.input<typeof bankSaveSchema>;

export const BANK_SORTABLE = ['bizCode', 'accountName', 'bankCode', 'createdAt'] as const;
export const bankListSchema = listSchema(
  {
    ownerType: optionalOneOf('账户归属', OWNER_TYPES),
    ownerCode: optionalCode('所属客户'),
    bankCode: z.preprocess(
      blank,
      z.string({ error: '开户银行不正确' }).regex(BANK_CODE_PATTERN, '开户银行不正确').optional(),
    ),
    accountName: optionalText('账户名称', 100),
    accountNo: z.preprocess(
      blank,
      z
        .string({ error: '银行账号格式不正确' })
        .regex(/^\d{1,30}$/, '银行账号格式不正确')
        .optional(),
    ),
    purpose: optionalOneOf('账户用途', PURPOSES),
    currency: optionalOneOf('币种', CURRENCIES),
    isDefault: z.preprocess(blank, bool('是否默认').optional()),
  },
  BANK_SORTABLE,
);
export type BankListInput = z.input<typeof bankListSchema>;

export const bankBizCodeQuery = z.object({ bizCode: code('账户编号') });

export interface BankAccountView {
  bizCode: string;
  ownerType: OwnerType;
  ownerCode: string | null;
  ownerName: string;
  bankCode: string;
  bankName: string;
  branchName: string;
  accountName: string;
  accountNo: string;
  currency: Currency;
  purpose: Purpose;
  isDefault: boolean;
  remark: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface BankDictItem {
  code: string;
  label: string;
}

/**
 * The purposes an account may have to be a contract's 还款账户 (where the customer repays): never
 * a 付款账户, which is where our money leaves from.
 */
export const REPAY_PURPOSES: readonly Purpose[] = ['repay', 'collect', 'settle'];

/** An account as a picker shows it: bank, number and purpose (and whose, when it is not ours). */
export function accountLabel(
  a: Pick<BankAccountView, 'bankName' | 'accountNo' | 'purpose' | 'accountName'>,
): string {
  return `${a.bankName} ${formatAccountNo(a.accountNo)}（${PURPOSE_LABELS[a.purpose]}）${a.accountName}`;
}

/** Shows 6222 0210 0112 3456 789 as groups of four, as printed on Chinese bank documents. */
export function formatAccountNo(no: string | null | undefined): string {
  if (!no) return '';
  return no.replace(/(\d{4})(?=\d)/g, '$1 ');
}
