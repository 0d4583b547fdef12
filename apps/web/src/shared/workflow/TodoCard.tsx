import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Card, Table, Tabs, Tag } from 'antd';
import { formatDateTime, formatMoney } from '@portal/contract/format';
import type { CirculationItem, TodoItem } from '@portal/contract/workflow';
import { workflowApi, workflowKeys, workflowQueries } from './api';
import { docEditorUrl, docViewUrl } from './doc-links';
import { ReminderTable } from '../bizdate/ReminderTable';

/**
 * 待办 / 待阅 for the dashboard: my pending approvals and the documents circulated to me.
 * Usage: `<TodoCard />` (optionally `pageSize`). A row opens the document's view screen.
 */
export function TodoCard({ pageSize = 10 }: { pageSize?: number }) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [todoPage, setTodoPage] = useState(1);
  const [readPage, setReadPage] = useState(1);
  const counts = useQuery(workflowQueries.counts());
  const todoParams = { pageNum: todoPage, pageSize };
  const readParams = { pageNum: readPage, pageSize, read: false };
  const todo = useQuery(workflowQueries.todo(todoParams));
  const toRead = useQuery(workflowQueries.toRead(readParams));
  const open = (docType: string, docCode: string) => {
    const url = docViewUrl(docType, docCode);
    if (url) void navigate(url);
  };
  // 被驳回: the maker's own document, opened where it is corrected.
  const openTodo = (item: TodoItem) => {
    const url =
      item.kind === 'rejected'
        ? docEditorUrl(item.docType, item.docCode)
        : docViewUrl(item.docType, item.docCode);
    if (url) void navigate(url);
  };
  const markRead = async (item: CirculationItem) => {
    await workflowApi.markRead(item.id).catch(() => undefined);
    await qc.invalidateQueries({ queryKey: workflowKeys.toReadAll });
    await qc.invalidateQueries({ queryKey: workflowKeys.counts });
  };
  return (
    <Card data-testid="todo-card">
      <Tabs
        items={[
          {
            key: 'todo',
            label: (
              <Badge count={counts.data?.todo ?? 0} size="small" offset={[8, 0]}>
                待办
              </Badge>
            ),
            children: (
              <Table<TodoItem>
                rowKey={(r) => `${r.docType}-${r.docCode}`}
                size="small"
                data-testid="todo-table"
                loading={todo.isLoading}
                dataSource={todo.data?.list ?? []}
                locale={{ emptyText: '暂无待办' }}
                pagination={{
                  current: todoPage,
                  pageSize,
                  total: todo.data?.total ?? 0,
                  onChange: setTodoPage,
                }}
                onRow={(r) => ({ onClick: () => openTodo(r), style: { cursor: 'pointer' } })}
                columns={[
                  { title: '单据类型', dataIndex: 'docTypeLabel' },
                  { title: '摘要', dataIndex: 'notic' },
                  {
                    title: '金额',
                    dataIndex: 'amount',
                    align: 'right',
                    render: (v: string | null) => (v ? formatMoney(v) : ''),
                  },
                  {
                    title: '当前步骤',
                    dataIndex: 'stepName',
                    render: (v: string, r) => (
                      <Tag color={r.kind === 'rejected' ? 'error' : 'processing'}>{v}</Tag>
                    ),
                  },
                  {
                    title: '驳回原因',
                    dataIndex: 'reason',
                    ellipsis: { showTitle: true },
                    render: (v: string | null, r) =>
                      r.kind === 'rejected'
                        ? `${v?.trim() || '（未填写）'}${r.rejectedBy ? `（${r.rejectedBy}）` : ''}`
                        : '',
                  },
                  { title: '提交人', dataIndex: 'submitterName' },
                  { title: '提交时间', dataIndex: 'startTime', render: (v: string) => formatDateTime(v) },
                ]}
              />
            ),
          },
          {
            key: 'reminders',
            label: '到期提醒',
            children: <ReminderTable pageSize={pageSize} />,
          },
          {
            key: 'toRead',
            label: (
              <Badge count={counts.data?.toRead ?? 0} size="small" offset={[8, 0]}>
                待阅
              </Badge>
            ),
            children: (
              <Table<CirculationItem>
                rowKey="id"
                size="small"
                data-testid="toread-table"
                loading={toRead.isLoading}
                dataSource={toRead.data?.list ?? []}
                locale={{ emptyText: '暂无待阅' }}
                pagination={{
                  current: readPage,
                  pageSize,
                  total: toRead.data?.total ?? 0,
                  onChange: setReadPage,
                }}
                columns={[
                  { title: '单据类型', dataIndex: 'docTypeLabel' },
                  {
                    title: '摘要',
                    dataIndex: 'notic',
                    render: (v: string, r) => (
                      <a onClick={() => open(r.docType, r.docCode)} role="link">
                        {v}
                      </a>
                    ),
                  },
                  { title: '发送人', dataIndex: 'fromName' },
                  { title: '说明', dataIndex: 'message', render: (v: string | null) => v ?? '' },
                  { title: '发送时间', dataIndex: 'sentAt', render: (v: string) => formatDateTime(v) },
                  {
                    title: '操作',
                    key: 'op',
                    render: (_: unknown, r) => (
                      <Button size="small" onClick={() => void markRead(r)}>
                        标记已阅
                      </Button>
                    ),
                  },
                ]}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
