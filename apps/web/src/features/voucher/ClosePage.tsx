import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { formatDateTime } from '@portal/contract/format';
import {
  CLOSE_ACTION_LABELS,
  CLOSE_MENU,
  CLOSE_PATHS,
  CLOSE_STATE_LABELS,
  PERIOD_PATTERN,
  type CloseAction,
  type CloseAskInput,
  type CloseMonth,
  type CloseRequest,
} from '@portal/contract/voucher';
import { useButtons } from '../../shared/permission/use-buttons';
import { update } from '../../shared/request/http';
import type { ScreenProps } from '../../shared/ui/screen';
import { voucherKeys, voucherQueries } from './api';

const requestText = (r: CloseRequest) =>
  `${CLOSE_ACTION_LABELS[r.action]}（${r.askedByName ?? ''} ${formatDateTime(r.askedAt)}${r.reason ? `，原因：${r.reason}` : ''}）`;

/**
 * 月结 (docs/accounting.md "Month close"): the months of the books, closed or open. Finance asks to
 * close or reopen (button add); a checker other than the asker approves — the close runs then — or
 * rejects (button audit).
 */
export default function ClosePage(_props: ScreenProps) {
  const buttons = useButtons(CLOSE_MENU);
  const qc = useQueryClient();
  const [askOpen, setAskOpen] = useState(false);
  const [form] = Form.useForm<CloseAskInput>();
  const q = useQuery(voucherQueries.close());
  const refresh = () => void qc.invalidateQueries({ queryKey: voucherKeys.all });
  const ask = async () => {
    const v = await form.validateFields();
    const r = await update(CLOSE_PATHS.ask, v).catch(() => null);
    if (r?.ok) {
      setAskOpen(false);
      form.resetFields();
      refresh();
    }
  };
  const decide = async (r: CloseRequest, approve: boolean) => {
    let comment = '';
    const title = `${approve ? '同意' : '驳回'}${r.period}${CLOSE_ACTION_LABELS[r.action]}`;
    const ok = await new Promise<boolean>((resolve) =>
      Modal.confirm({
        title,
        content: (
          <Input.TextArea
            aria-label="复核意见"
            placeholder={approve ? '复核意见（选填）' : '复核意见（必填）'}
            onChange={(e) => (comment = e.target.value)}
          />
        ),
        okText: approve ? '同意' : '驳回',
        cancelText: '取消',
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      }),
    );
    if (!ok) return;
    await update(approve ? CLOSE_PATHS.approve : CLOSE_PATHS.reject, {
      requestId: r.requestId,
      comment: comment || undefined,
    }).catch(() => null);
    refresh();
  };
  const columns: TableColumnsType<CloseMonth> = [
    { title: '会计期间', dataIndex: 'period', key: 'period', width: 100 },
    {
      title: '状态',
      key: 'closed',
      width: 90,
      render: (_, m) => (m.closed ? <Tag color="blue">已结账</Tag> : <Tag>未结账</Tag>),
    },
    {
      title: '结账人 / 时间',
      key: 'closedBy',
      width: 200,
      render: (_, m) =>
        m.closed ? `${m.closedByName ?? ''} ${m.closedAt ? formatDateTime(m.closedAt) : ''}` : '',
    },
    {
      title: '待复核申请',
      key: 'request',
      render: (_, m) => (m.request ? requestText(m.request) : ''),
    },
    {
      title: '最近处理',
      key: 'last',
      render: (_, m) =>
        m.last
          ? `${CLOSE_ACTION_LABELS[m.last.action]}${CLOSE_STATE_LABELS[m.last.state]}（${m.last.decidedByName ?? ''}${m.last.comment ? `：${m.last.comment}` : ''}）`
          : '',
    },
    {
      title: '操作',
      key: 'op',
      width: 150,
      render: (_, m) =>
        m.request && buttons.has('audit') ? (
          <Space>
            <Button size="small" type="link" onClick={() => void decide(m.request!, true)}>
              同意
            </Button>
            <Button size="small" type="link" danger onClick={() => void decide(m.request!, false)}>
              驳回
            </Button>
          </Space>
        ) : null,
    },
  ];
  return (
    <Card
      data-testid="voucher-close"
      title="月结"
      extra={
        buttons.has('add') ? (
          <Button type="primary" onClick={() => setAskOpen(true)}>
            申请结账/反结账
          </Button>
        ) : null
      }
    >
      <Typography.Paragraph type="secondary">
        结账前自动补做月末计提、预收利息摊销和减值准备计提，并检查每张凭证借贷平衡、试算平衡与凭证明细一致；已结账月份不能再记入凭证。
      </Typography.Paragraph>
      <Table<CloseMonth>
        size="small"
        rowKey="period"
        loading={q.isFetching}
        // 操作 only while a month waits for a decision this user may take: never an empty column
        // (docs/architecture.md "Lists fit their box").
        columns={
          buttons.has('audit') && (q.data?.list ?? []).some((m) => m.request)
            ? columns
            : columns.filter((c) => c.key !== 'op')
        }
        dataSource={q.data?.list ?? []}
        pagination={false}
      />
      <Modal
        title="申请结账/反结账"
        open={askOpen}
        onOk={() => void ask()}
        onCancel={() => setAskOpen(false)}
        okText="提交"
        cancelText="取消"
      >
        <Form form={form} layout="vertical" initialValues={{ action: 'close' satisfies CloseAction }}>
          <Form.Item
            name="period"
            label="会计期间"
            rules={[{ required: true, pattern: PERIOD_PATTERN, message: '会计期间格式应为YYYY-MM' }]}
          >
            <Input aria-label="会计期间" placeholder="YYYY-MM" />
          </Form.Item>
          <Form.Item name="action" label="操作">
            <Select
              aria-label="操作"
              options={(Object.keys(CLOSE_ACTION_LABELS) as CloseAction[]).map((a) => ({
                value: a,
                label: CLOSE_ACTION_LABELS[a],
              }))}
            />
          </Form.Item>
          <Form.Item name="reason" label="原因（反结账必填）">
            <Input.TextArea aria-label="原因" maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
