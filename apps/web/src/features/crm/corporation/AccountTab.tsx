import { Form, type TableColumnsType } from 'antd';
import type { BankAccountView } from '@portal/contract/bank';
import { CRM_PATHS } from '@portal/contract/crm';
import { EditModal } from '../../../shared/list/EditModal';
import { ListPage } from '../../../shared/list/ListPage';
import { AddButton } from '../../../shared/list/AddButton';
import { actionsColumn } from '../../../shared/list/RowActions';
import { updateThen } from '../../../shared/list/update-then';
import { useRowEditor } from '../../../shared/list/use-row-editor';
import { codeColumn } from '../../../shared/list/columns';
import type { ScreenProps } from '../../../shared/ui/screen';
import { crmKeys, useCompCode } from '../api';
import { AccountFields, accountToForm, type AccountValues } from './AccountFields';
import { isView, SAVE, TabFrame, useCustomerFetcher } from './tab-kit';
import { ACCOUNT_PURPOSE_COLUMNS } from './account-columns';
import { validValues } from '../../../shared/ui/valid-values';

/** 账户信息: the customer's bank accounts (bank module), one default per purpose. */
export function AccountTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const [form] = Form.useForm<AccountValues>();
  const fetcher = useCustomerFetcher<BankAccountView>(CRM_PATHS.accountList, compCode);

  const { editing, row, open, close } = useRowEditor(form, accountToForm);

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    await updateThen(
      CRM_PATHS.accountSave,
      { ...v, compCode, ...(row ? { bizCode: row.bizCode, version: row.version } : {}) },
      {},
      close,
    );
  };

  const act = (r: BankAccountView, path: string, confirm: string) =>
    void updateThen(path, undefined, { query: { compCode: compCode!, bizCode: r.bizCode }, confirm });

  const columns: TableColumnsType<BankAccountView> = [
    codeColumn('账户编号', 'bizCode', { width: 130 }),
    { title: '开户银行', dataIndex: 'bankName', key: 'bankName', width: 150 },
    { title: '开户网点', dataIndex: 'branchName', key: 'branchName', width: 150 },
    { title: '账户名称', dataIndex: 'accountName', key: 'accountName', width: 180 },
    { title: '银行账号', dataIndex: 'accountNo', key: 'accountNo', width: 190 },
    ...ACCOUNT_PURPOSE_COLUMNS,
    ...(readOnly
      ? []
      : [
          actionsColumn<BankAccountView>((row) => [
            { label: '编辑', code: SAVE, onClick: () => open(row) },
            {
              label: '设为默认',
              code: SAVE,
              hidden: row.isDefault,
              onClick: () =>
                act(row, CRM_PATHS.accountSetDefault, `确定将账户 ${row.accountNo} 设为默认吗？`),
            },
            {
              label: '删除',
              code: SAVE,
              danger: true,
              onClick: () => act(row, CRM_PATHS.accountDel, `确定要删除账户 ${row.accountNo} 吗？`),
            },
          ]),
        ]),
  ];

  return (
    <TabFrame title="账户信息" compCode={compCode} testId="crm-tab-account">
      <ListPage<BankAccountView>
        source={fetcher}
        queryKey={crmKeys.part('accounts', compCode)}
        rowKey="bizCode"
        columns={columns}
        tableProps={{ size: 'small', scroll: { x: 1200 } }}
        toolbar={
          readOnly ? null : (
            <AddButton code={SAVE} onClick={() => open('new')}>
              新增账户
            </AddButton>
          )
        }
      />
      <EditModal
        title={editing === 'new' ? '新增银行账户' : '编辑银行账户'}
        open={editing !== null}
        onSave={save}
        onCancel={close}
      >
        <AccountFields form={form} />
      </EditModal>
    </TabFrame>
  );
}
