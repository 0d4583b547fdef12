import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Descriptions, Drawer, Form, Input, Select, Tag } from 'antd';
import { formatDateTime, formatMoney } from '@portal/contract/format';
import {
  DOC_TYPES,
  PROC_STATE_LABELS,
  PROC_STATES,
  type InstanceItem,
  type ProcState,
} from '@portal/contract/workflow';
import { KEY, type ListColumns } from '../../shared/list/fit-columns';
import { ListPage, type ListFetcher } from '../../shared/list/ListPage';
import { workflowApi, workflowKeys } from '../../shared/workflow/api';
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

/** The list call of 流程监控 (its query under the workflow key: an action on a document refreshes it). */
const fetchInstances: ListFetcher<InstanceItem> = (params) => workflowApi.instances(params);

/** The columns; 摘要 opens the row's audit view (`open`). */
const monitorColumns = (open: (row: InstanceItem) => void): ListColumns<InstanceItem> => [
  { title: '单据类型', dataIndex: 'docTypeLabel', key: 'docTypeLabel', width: 120 },
  { title: '单据编号', dataIndex: 'docCode', key: 'docCode', width: 140, priority: KEY },
  {
    title: '摘要',
    dataIndex: 'notic',
    key: 'notic',
    width: 240,
    priority: KEY,
    render: (v: string, r) => (
      <a onClick={() => open(r)} data-testid="open-instance">
        {v}
      </a>
    ),
  },
  {
    title: '金额',
    dataIndex: 'amount',
    key: 'amount',
    align: 'right',
    width: 150,
    render: (v: string | null) => (v ? formatMoney(v) : ''),
  },
  {
    title: '状态',
    dataIndex: 'status',
    key: 'status',
    width: 90,
    priority: KEY,
    render: (v: ProcState) => <Tag color={STATUS_COLORS[v]}>{PROC_STATE_LABELS[v]}</Tag>,
  },
  {
    title: '当前步骤',
    dataIndex: 'stepName',
    key: 'stepName',
    width: 120,
    render: (v: string | null) => v ?? '',
  },
  { title: '提交人', dataIndex: 'submitterName', key: 'submitterName', width: 100 },
  {
    title: '开始时间',
    dataIndex: 'startTime',
    key: 'startTime',
    width: 170,
    priority: 2,
    render: (v: string) => formatDateTime(v),
  },
  {
    title: '结束时间',
    dataIndex: 'endTime',
    key: 'endTime',
    width: 170,
    priority: 2,
    render: (v: string | null) => (v ? formatDateTime(v) : ''),
  },
];

/** 流程监控 on the shared list kit (search form, paging, kept condition, columns that fit). */
export function MonitorPanel() {
  const [open, setOpen] = useState<InstanceItem | null>(null);
  const columns = useMemo(() => monitorColumns(setOpen), []);
  const viewUrl = open ? docViewUrl(open.docType, open.docCode) : undefined;
  return (
    <div data-testid="monitor-panel">
      <ListPage<InstanceItem>
        source={fetchInstances}
        queryKey={workflowKeys.instances}
        rowKey={(r) => `${r.docType}-${r.docCode}-${r.round}`}
        initialFilters={{ status: 'pending' }}
        filters={
          <>
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
          </>
        }
        columns={columns}
        tableProps={{ size: 'middle', locale: { emptyText: '暂无审批流程' } }}
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
