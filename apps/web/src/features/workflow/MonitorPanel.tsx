import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Form, Input, Select, Space, Table, Tag } from 'antd';
import { formatDateTime, formatMoney } from '@portal/contract/format';
import {
  DOC_TYPES,
  PROC_STATE_LABELS,
  PROC_STATES,
  type InstanceItem,
  type ProcState,
} from '@portal/contract/workflow';
import { workflowApi } from '../../shared/workflow/api';
import { AuditView } from '../../shared/workflow/AuditView';
import { docViewUrl } from '../../shared/workflow/doc-links';

/**
 * 流程监控: every submission of every document, filtered by type, status and keyword; a row opens
 * the document's audit view (header, 审批记录, 流程图, 传阅, and 流程审批 when the user may decide).
 */

const STATUS_COLORS: Record<ProcState, string> = {
  pending: 'processing',
  approved: 'success',
  rejected: 'error',
  withdrawn: 'default',
};

interface Filters {
  docType?: string;
  status?: string;
  keyword?: string;
}

export function MonitorPanel() {
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({ status: 'pending' });
  const [pageNum, setPageNum] = useState(1);
  const [open, setOpen] = useState<InstanceItem | null>(null);
  const pageSize = 20;
  const params = { pageNum, pageSize, ...filters };
  const list = useQuery({
    queryKey: ['workflow', 'instances', params],
    queryFn: () => workflowApi.instances(params),
  });
  const search = (values: Filters) => {
    setPageNum(1);
    setFilters({
      ...(values.docType ? { docType: values.docType } : {}),
      ...(values.status ? { status: values.status } : {}),
      ...(values.keyword?.trim() ? { keyword: values.keyword.trim() } : {}),
    });
  };
  const viewUrl = open ? docViewUrl(open.docType, open.docCode) : undefined;
  return (
    <div data-testid="monitor-panel">
      <Form
        form={form}
        layout="inline"
        initialValues={{ status: 'pending' }}
        onFinish={search}
        style={{ marginBottom: 12 }}
      >
        <Form.Item name="docType" label="单据类型">
          <Select
            allowClear
            style={{ width: 160 }}
            placeholder="全部"
            options={Object.entries(DOC_TYPES).map(([value, t]) => ({ value, label: t.label }))}
          />
        </Form.Item>
        <Form.Item name="status" label="流程状态">
          <Select
            allowClear
            style={{ width: 120 }}
            placeholder="全部"
            options={PROC_STATES.map((s) => ({ value: s, label: PROC_STATE_LABELS[s] }))}
          />
        </Form.Item>
        <Form.Item name="keyword" label="关键字">
          <Input placeholder="单据编号 / 摘要 / 提交人" allowClear style={{ width: 200 }} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            查询
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              search({ status: 'pending' });
            }}
          >
            重置
          </Button>
        </Space>
      </Form>
      <Table<InstanceItem>
        rowKey={(r) => `${r.docType}-${r.docCode}-${r.round}`}
        size="middle"
        data-testid="instance-table"
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        locale={{ emptyText: '暂无审批流程' }}
        pagination={{
          current: pageNum,
          pageSize,
          total: list.data?.total ?? 0,
          onChange: setPageNum,
          showTotal: (n) => `共 ${n} 条`,
        }}
        columns={[
          { title: '单据类型', dataIndex: 'docTypeLabel', width: 120 },
          { title: '单据编号', dataIndex: 'docCode', width: 140 },
          {
            title: '摘要',
            dataIndex: 'notic',
            render: (v: string, r) => (
              <a onClick={() => setOpen(r)} data-testid="open-instance">
                {v}
              </a>
            ),
          },
          {
            title: '金额',
            dataIndex: 'amount',
            align: 'right',
            width: 150,
            render: (v: string | null) => (v ? formatMoney(v) : ''),
          },
          {
            title: '状态',
            dataIndex: 'status',
            width: 90,
            render: (v: ProcState) => <Tag color={STATUS_COLORS[v]}>{PROC_STATE_LABELS[v]}</Tag>,
          },
          { title: '当前步骤', dataIndex: 'stepName', width: 120, render: (v: string | null) => v ?? '' },
          { title: '提交人', dataIndex: 'submitterName', width: 100 },
          { title: '开始时间', dataIndex: 'startTime', width: 170, render: (v: string) => formatDateTime(v) },
          {
            title: '结束时间',
            dataIndex: 'endTime',
            width: 170,
            render: (v: string | null) => (v ? formatDateTime(v) : ''),
          },
        ]}
      />
      <Drawer
        title={open ? `${open.docTypeLabel} ${open.docCode}` : ''}
        open={!!open}
        onClose={() => setOpen(null)}
        size={960}
        destroyOnHidden
      >
        {open ? (
          <AuditView docType={open.docType} docCode={open.docCode} decide>
            <Descriptions
              size="small"
              column={1}
              bordered
              items={[
                { key: 'type', label: '单据类型', children: open.docTypeLabel },
                { key: 'code', label: '单据编号', children: open.docCode },
                { key: 'notic', label: '摘要', children: open.notic },
                { key: 'amount', label: '金额', children: open.amount ? formatMoney(open.amount) : '—' },
                {
                  key: 'link',
                  label: '单据详情',
                  children: viewUrl ? <Link to={viewUrl}>打开单据</Link> : '—',
                },
              ]}
            />
          </AuditView>
        ) : null}
      </Drawer>
    </div>
  );
}
