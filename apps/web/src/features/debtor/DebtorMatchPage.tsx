import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Modal, Select, Table, Tag } from 'antd';
import {
  DEBTOR_MATCH_MENU,
  DEBTOR_PATHS,
  UNMATCHED_SOURCE_LABELS,
  UNMATCHED_SOURCES,
  type UnmatchedRow,
} from '@portal/contract/debtor';
import { useButtons } from '../../shared/permission/use-buttons';
import { update } from '../../shared/request/http';
import { debtorKeys } from '../../shared/debtor/api';
import { useDebtorDict } from '../../shared/debtor/DebtorPicker';
import { debtorQueries } from './api';

/**
 * 债务人待匹配: the debtor names typed as free text that no customer bears exactly; a person
 * chooses the customer each stands for, and every row bearing the name is linked to it.
 */
export default function DebtorMatchPage() {
  const qc = useQueryClient();
  const buttons = useButtons(DEBTOR_MATCH_MENU);
  const list = useQuery(debtorQueries.unmatched());
  const dict = useDebtorDict();
  const [target, setTarget] = useState<UnmatchedRow | null>(null);
  const [form] = Form.useForm<{ debtorCode: string }>();

  const resolve = async () => {
    const { debtorCode } = await form.validateFields();
    const r = await update(DEBTOR_PATHS.resolve, { debtorName: target!.debtorName, debtorCode });
    if (!r.ok) return;
    setTarget(null);
    await qc.invalidateQueries({ queryKey: debtorKeys.all });
  };

  return (
    <Card title="债务人待匹配" data-testid="debtor-match">
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        message="以下债务人名称没有与企业客户（买方或核心企业）完全一致的名称。请选择其对应的客户：该名称的所有单据行将关联到该客户，原名称保留。"
      />
      <Table<UnmatchedRow>
        rowKey="debtorName"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        pagination={false}
        columns={[
          { title: '债务人名称', dataIndex: 'debtorName', key: 'debtorName' },
          {
            title: '出现位置',
            key: 'counts',
            render: (_, r) =>
              UNMATCHED_SOURCES.filter((s) => r.counts[s]).map((s) => (
                <Tag key={s}>
                  {UNMATCHED_SOURCE_LABELS[s]} {r.counts[s]}
                </Tag>
              )),
          },
          { title: '单据编号', key: 'docs', render: (_, r) => r.docs.join('、') },
          // Without 匹配客户 the row offers nothing: no 操作 column (docs/architecture.md).
          ...(buttons.has('save')
            ? [
                {
                  title: '操作',
                  key: 'op',
                  width: 120,
                  render: (_: unknown, r: UnmatchedRow) => (
                    <Button
                      type="link"
                      onClick={() => {
                        form.resetFields();
                        setTarget(r);
                      }}
                    >
                      匹配客户
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Modal
        open={target !== null}
        title={`匹配债务人「${target?.debtorName ?? ''}」`}
        onOk={() => void resolve()}
        onCancel={() => setTarget(null)}
        okText="确定"
        cancelText="取消"
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="debtorCode"
            label="企业客户"
            rules={[{ required: true, message: '请选择企业客户' }]}
          >
            <Select
              aria-label="企业客户"
              showSearch
              optionFilterProp="label"
              options={(dict.data ?? []).map((d) => ({ value: d.code, label: d.label, title: d.label }))}
            />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
