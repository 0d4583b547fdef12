import { Tag, type TableColumnsType } from 'antd';
import { PURPOSE_LABELS, type BankAccountView } from '@portal/contract/bank';

/** The 用途 and 默认 columns of a customer bank account list. */
export const ACCOUNT_PURPOSE_COLUMNS: TableColumnsType<BankAccountView> = [
  {
    title: '用途',
    dataIndex: 'purpose',
    key: 'purpose',
    width: 100,
    render: (p: BankAccountView['purpose']) => PURPOSE_LABELS[p],
  },
  {
    title: '默认',
    dataIndex: 'isDefault',
    key: 'isDefault',
    width: 70,
    render: (d: boolean) => (d ? <Tag color="blue">默认</Tag> : null),
  },
];
