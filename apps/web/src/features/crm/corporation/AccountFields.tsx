import { Form, Row, type FormInstance } from 'antd';
import type { BankAccountView } from '@portal/contract/bank';
import type { AccountSave } from '@portal/contract/crm';
import { AccountFields as SharedAccountFields } from '../../../shared/bank/AccountFields';

export type AccountValues = Omit<AccountSave, 'compCode' | 'bizCode' | 'version'>;

/** A saved account as form values. */
export const accountToForm = (a: BankAccountView): AccountValues => ({
  bankCode: a.bankCode,
  branchName: a.branchName,
  accountName: a.accountName,
  accountNo: a.accountNo,
  currency: a.currency,
  purpose: a.purpose,
  isDefault: a.isDefault,
  remark: a.remark ?? undefined,
});

/** A customer bank account's form (the shared account fields; also the bank-editor basic info). */
export function AccountFields({
  form,
  disabled = false,
}: {
  form: FormInstance<AccountValues>;
  disabled?: boolean;
}) {
  return (
    <Form<AccountValues>
      form={form}
      layout="vertical"
      name="crmAccount"
      disabled={disabled}
      initialValues={{ currency: 'CNY', purpose: 'collect', isDefault: false }}
    >
      <Row gutter={16}>
        <SharedAccountFields />
      </Row>
    </Form>
  );
}
