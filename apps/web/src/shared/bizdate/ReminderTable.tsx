import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Table, Tag } from 'antd';
import { REMINDER_KIND_LABELS, type ReminderItem } from '@portal/contract/bizdate';
import { formatMoney } from '@portal/contract/format';
import { bizDateQueries } from './api';

const CONTRACT_VIEW = '/factoring/contract/info-view';

/** 到期提醒 of 待办: the day-end's due-soon and overdue reminders of my contracts still owing. */
export function ReminderTable({ pageSize = 10 }: { pageSize?: number }) {
  const navigate = useNavigate();
  const [pageNum, setPageNum] = useState(1);
  const q = useQuery(bizDateQueries.reminders(pageNum, pageSize));
  return (
    <Table<ReminderItem>
      rowKey="id"
      size="small"
      data-testid="reminder-table"
      loading={q.isLoading}
      dataSource={q.data?.list ?? []}
      locale={{ emptyText: '暂无到期提醒' }}
      pagination={{ current: pageNum, pageSize, total: q.data?.total ?? 0, onChange: setPageNum }}
      onRow={(r) => ({
        onClick: () => void navigate(`${CONTRACT_VIEW}?bizCode=${r.contBizCode}`),
        style: { cursor: 'pointer' },
      })}
      columns={[
        {
          title: '提醒',
          dataIndex: 'kind',
          render: (v: ReminderItem['kind']) => (
            <Tag color={v === 'overdue' ? 'red' : 'orange'}>{REMINDER_KIND_LABELS[v]}</Tag>
          ),
        },
        { title: '合同号', dataIndex: 'contractNo' },
        { title: '客户名称', dataIndex: 'custName' },
        { title: '期次', dataIndex: 'period' },
        { title: '还款日', dataIndex: 'dueDate' },
        {
          title: '未还本息费',
          dataIndex: 'openAmount',
          align: 'right',
          render: (v: string) => formatMoney(v),
        },
        {
          title: '未还罚息',
          dataIndex: 'penaltyAmount',
          align: 'right',
          render: (v: string) => formatMoney(v),
        },
        { title: '金额截至', dataIndex: 'asOf' },
      ]}
    />
  );
}
