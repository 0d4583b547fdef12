import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import { formatMoney } from '@portal/contract/format';
import {
  DEBTOR_LINE_MENU,
  DEBTOR_MOVEMENT_LABELS,
  DEBTOR_PATHS,
  LINE_STATE_LABELS,
  debtorLineSaveSchema,
  type DebtorLedgerRow,
  type DebtorLineRow,
} from '@portal/contract/debtor';
import { MoneyInput } from '../../shared/form/MoneyInput';
import { fieldRules } from '../../shared/form/zod-rule';
import { useButtons } from '../../shared/permission/use-buttons';
import { update } from '../../shared/request/http';
import { debtorKeys } from '../../shared/debtor/api';
import { useDebtorDict } from '../../shared/debtor/DebtorPicker';
import { debtorQueries } from './api';

const rules = fieldRules(debtorLineSaveSchema);

interface LineValues {
  debtorCode: string;
  limitAmount: string;
  remark?: string;
}

/**
 * 债务人额度: one line per debtor across all sellers (docs/credit.md "Debtor lines"). A new line
 * or a new limit is proposed by one person and takes effect when another approves it.
 */
export default function DebtorLinePage() {
  const qc = useQueryClient();
  const buttons = useButtons(DEBTOR_LINE_MENU);
  const lines = useQuery(debtorQueries.lines());
  const dict = useDebtorDict();
  const [editing, setEditing] = useState<DebtorLineRow | 'new' | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const [form] = Form.useForm<LineValues>();
  const ledger = useQuery(debtorQueries.line(viewing));
  const refresh = () => qc.invalidateQueries({ queryKey: debtorKeys.all });

  const save = async () => {
    const v = await form.validateFields();
    const row = editing === 'new' ? null : editing;
    const r = await update(DEBTOR_PATHS.saveLine, {
      ...v,
      ...(row ? { bizCode: row.bizCode, version: row.version } : {}),
    });
    if (!r.ok) return;
    setEditing(null);
    await refresh();
  };
  const decide = async (row: DebtorLineRow, pass: boolean) => {
    const r = await update(
      pass ? DEBTOR_PATHS.passLine : DEBTOR_PATHS.rejectLine,
      { version: row.version },
      {
        query: { bizCode: row.bizCode },
        confirm: pass
          ? `确定通过债务人「${row.debtorName}」的额度 ${formatMoney(row.pendingLimit)}？`
          : `确定拒绝债务人「${row.debtorName}」的额度调整？`,
      },
    );
    if (r.ok) await refresh();
  };

  return (
    <Card
      title="债务人额度"
      data-testid="debtor-lines"
      extra={
        buttons.has('save') ? (
          <Button
            type="primary"
            onClick={() => {
              form.resetFields();
              setEditing('new');
            }}
          >
            新增额度
          </Button>
        ) : null
      }
    >
      <Table<DebtorLineRow>
        rowKey="bizCode"
        loading={lines.isLoading}
        dataSource={lines.data ?? []}
        pagination={false}
        columns={[
          { title: '额度编号', dataIndex: 'bizCode', key: 'bizCode', width: 130 },
          { title: '债务人', dataIndex: 'debtorName', key: 'debtorName' },
          {
            title: '状态',
            key: 'state',
            width: 90,
            render: (_, r) => (
              <Tag color={r.state === 'active' ? 'green' : 'default'}>{LINE_STATE_LABELS[r.state]}</Tag>
            ),
          },
          { title: '额度', key: 'limit', align: 'right', render: (_, r) => formatMoney(r.limitAmount) },
          {
            title: '已占用',
            key: 'occupied',
            align: 'right',
            render: (_, r) => formatMoney(r.occupiedAmount),
          },
          {
            title: '可用',
            key: 'available',
            align: 'right',
            render: (_, r) => formatMoney(r.availableAmount),
          },
          {
            title: '待审核',
            key: 'pending',
            render: (_, r) =>
              r.pendingLimit === null
                ? '—'
                : `${formatMoney(r.pendingLimit)}（${r.pendingByName ?? ''}提交）`,
          },
          {
            title: '操作',
            key: 'op',
            width: 240,
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" onClick={() => setViewing(r.bizCode)}>
                  明细
                </Button>
                {buttons.has('save') ? (
                  <Button
                    type="link"
                    onClick={() => {
                      form.setFieldsValue({
                        debtorCode: r.debtorCode,
                        limitAmount: r.pendingLimit ?? r.limitAmount,
                      });
                      setEditing(r);
                    }}
                  >
                    调整
                  </Button>
                ) : null}
                {r.pendingLimit !== null && buttons.has('pass') ? (
                  <Button type="link" onClick={() => void decide(r, true)}>
                    通过
                  </Button>
                ) : null}
                {r.pendingLimit !== null && buttons.has('reject') ? (
                  <Button type="link" danger onClick={() => void decide(r, false)}>
                    拒绝
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? '新增债务人额度' : '调整债务人额度'}
        onOk={() => void save()}
        onCancel={() => setEditing(null)}
        okText="提交审核"
        cancelText="取消"
      >
        <Form form={form} layout="vertical">
          <Form.Item name="debtorCode" label="债务人" rules={rules.debtorCode}>
            <Select
              aria-label="债务人"
              showSearch
              optionFilterProp="label"
              disabled={editing !== 'new'}
              options={(dict.data ?? []).map((d) => ({ value: d.code, label: d.label, title: d.label }))}
            />
          </Form.Item>
          <Form.Item name="limitAmount" label="债务人额度" rules={rules.limitAmount}>
            <MoneyInput aria-label="债务人额度" />
          </Form.Item>
          <Form.Item name="remark" label="额度说明" rules={rules.remark}>
            <Input.TextArea aria-label="额度说明" rows={2} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={viewing !== null}
        title={`额度明细 ${viewing ?? ''}`}
        footer={null}
        width={900}
        onCancel={() => setViewing(null)}
      >
        <Table<DebtorLedgerRow>
          rowKey={(r, i) => `${r.at}-${i}`}
          loading={ledger.isLoading}
          dataSource={ledger.data?.ledger ?? []}
          pagination={{ pageSize: 20 }}
          size="small"
          columns={[
            { title: '营业日', dataIndex: 'bizDate', key: 'bizDate', width: 110 },
            {
              title: '变动',
              key: 'movement',
              width: 90,
              render: (_, r) => DEBTOR_MOVEMENT_LABELS[r.movement],
            },
            { title: '金额', key: 'amount', align: 'right', render: (_, r) => formatMoney(r.amount) },
            {
              title: '变动后已占用',
              key: 'occ',
              align: 'right',
              render: (_, r) => formatMoney(r.occupiedAfter),
            },
            { title: '单据', dataIndex: 'docCode', key: 'docCode', width: 130 },
            { title: '原因', dataIndex: 'reason', key: 'reason' },
            { title: '操作人', dataIndex: 'actorName', key: 'actorName', width: 90 },
          ]}
        />
      </Modal>
    </Card>
  );
}
