import { useState } from 'react';
import { Form, Input, Modal } from 'antd';
import { rushRedBody, type PaidRow } from '@portal/contract/accounts';
import { paidApi } from './api';
import { zodRule } from '../../shared/form/zod-rule';
import { validValues } from '../../shared/ui/valid-values';

/**
 * 冲红 asks why before anything is sent: the reason is required (the contract's rushRedBody, so
 * the form and the server give the same message) and shown in the red list.
 */
export function RushRedDialog({
  row,
  onClose,
  onDone,
}: {
  row: PaidRow | null;
  onClose: () => void;
  onDone: (paidRedBizCode: string) => void;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!row) return;
    const values = await validValues(form);
    if (!values) return;
    const { reason } = values;
    setBusy(true);
    try {
      const res = await paidApi.rushRed(row.paidBizCode, reason).catch(() => null);
      if (res?.ok && res.data) onDone(res.data.paidRedBizCode);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={!!row}
      title={row ? `冲红来款核销 ${row.paidBizCode}` : '冲红'}
      okText="提交冲红"
      okButtonProps={{ danger: true, loading: busy }}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      afterClose={() => form.resetFields()}
      destroyOnHidden
    >
      <p>冲红审核通过后将恢复来款余额和还款计划。</p>
      <Form form={form} layout="vertical" data-testid="rush-red-form">
        <Form.Item name="reason" label="冲红原因" rules={[zodRule(rushRedBody.shape.reason)]}>
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
