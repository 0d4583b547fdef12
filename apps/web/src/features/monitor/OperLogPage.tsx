import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Descriptions, Form, Input, Modal, Select, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { formatDateTime } from '@portal/contract/format';
import {
  AUDIT_ENTITY_LABELS,
  MONITOR_MENUS,
  MONITOR_PATHS,
  OPER_LOG_EXPORT_FILE_NAME,
  OPER_RESULT_LABELS,
  type OperLogView,
} from '@portal/contract/monitor';
import { actionsColumn } from '../../shared/list/RowActions';
import { ListPage } from '../../shared/list/ListPage';
import { dateColumn } from '../../shared/list/columns';
import type { ScreenProps } from '../../shared/ui/screen';
import { dateRangeFilters, monitorQueries } from './api';
import { ListExportButton } from '../../shared/list/ExportButton';
import { AuditChangesTable } from '../../shared/audit/AuditChangesTable';

const RESULT_OPTIONS = Object.entries(OPER_RESULT_LABELS).map(([value, label]) => ({ value, label }));
const ENTITY_OPTIONS = Object.entries(AUDIT_ENTITY_LABELS).map(([value, label]) => ({ value, label }));

/** One audit row: who, what, and the changed fields before and after, in words. */
function OperLogDetailModal({ row, onClose }: { row: OperLogView; onClose(): void }) {
  const detail = useQuery(monitorQueries.operLog(row.id));
  const d = detail.data;
  return (
    <Modal open title="操作详情" width={760} footer={null} onCancel={onClose} destroyOnHidden>
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label="操作时间">{formatDateTime(row.at)}</Descriptions.Item>
        <Descriptions.Item label="操作人">
          {row.realName ? `${row.realName}（${row.userName}）` : (row.userName ?? '系统')}
        </Descriptions.Item>
        <Descriptions.Item label="所属组织">{row.orgName ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="模块">{row.entityLabel}</Descriptions.Item>
        <Descriptions.Item label="操作类型">{row.actionLabel}</Descriptions.Item>
        <Descriptions.Item label="单据编号">{row.entityCode ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="结果">{row.resultLabel}</Descriptions.Item>
        <Descriptions.Item label="IP地址">{row.ip ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="请求编号">{row.requestId ?? '—'}</Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {d?.hasBefore ? '修改的字段' : '记录的内容'}
      </Typography.Title>
      <AuditChangesTable changes={d?.changes ?? []} hasBefore={!!d?.hasBefore} loading={detail.isFetching} />
    </Modal>
  );
}

/** 操作日志: every audited write, searchable; a row opens its before/after. */
export default function OperLogPage(_props: ScreenProps) {
  const [open, setOpen] = useState<OperLogView>();
  const columns: TableColumnsType<OperLogView> = [
    dateColumn('操作时间', 'at', { withTime: true, width: 170 }),
    {
      title: '操作人',
      key: 'user',
      render: (_: unknown, r) => (r.realName ? `${r.realName}（${r.userName}）` : (r.userName ?? '系统')),
    },
    { title: '所属组织', dataIndex: 'orgName', key: 'orgName' },
    { title: '模块', dataIndex: 'entityLabel', key: 'entityLabel' },
    { title: '操作类型', dataIndex: 'actionLabel', key: 'actionLabel' },
    { title: '单据编号', dataIndex: 'entityCode', key: 'entityCode' },
    {
      title: '结果',
      key: 'result',
      width: 80,
      render: (_: unknown, r) => <Tag color={r.result === 'success' ? 'green' : 'red'}>{r.resultLabel}</Tag>,
    },
    { title: 'IP地址', dataIndex: 'ip', key: 'ip' },
    actionsColumn<OperLogView>((r) => [{ label: '详情', onClick: () => setOpen(r) }]),
  ];
  return (
    <>
      <ListPage<OperLogView>
        source={MONITOR_PATHS.operLogList}
        rowKey="id"
        columns={columns}
        toFilters={dateRangeFilters}
        toolbar={
          <ListExportButton
            menu={MONITOR_MENUS.operLog}
            path={MONITOR_PATHS.operLogExport}
            fileName={OPER_LOG_EXPORT_FILE_NAME}
          />
        }
        filters={
          <>
            <Form.Item name="userName" label="操作人">
              <Input allowClear maxLength={64} placeholder="用户名或姓名" />
            </Form.Item>
            <Form.Item name="entity" label="模块">
              <Select allowClear placeholder="全部" style={{ width: 140 }} options={ENTITY_OPTIONS} />
            </Form.Item>
            <Form.Item name="entityCode" label="单据编号">
              <Input allowClear maxLength={64} />
            </Form.Item>
            <Form.Item name="result" label="结果">
              <Select allowClear placeholder="全部" style={{ width: 100 }} options={RESULT_OPTIONS} />
            </Form.Item>
            <Form.Item name="at" label="操作日期">
              <DatePicker.RangePicker />
            </Form.Item>
          </>
        }
      />
      {open ? <OperLogDetailModal row={open} onClose={() => setOpen(undefined)} /> : null}
    </>
  );
}
