import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Space, Table, Tag } from 'antd';
import {
  BIZDATE_MENU,
  BIZDATE_PATHS,
  BIZDATE_SOURCE_LABELS,
  DAY_END_STATE_LABELS,
  DAY_END_TRIGGER_LABELS,
  type DayEndItem,
  type DayEndRun,
} from '@portal/contract/bizdate';
import { formatDateTime, formatMoney } from '@portal/contract/format';
import { ListPage } from '../../shared/list/ListPage';
import { useButtons } from '../../shared/permission/use-buttons';
import { update } from '../../shared/request/http';
import { bizDateKeys, useBizDate } from '../../shared/bizdate/api';
import { BizDateMove } from '../../shared/bizdate/BizDateMove';
import { DayEndProgress } from '../../shared/bizdate/DayEndProgress';
import { dayEndQueries } from './api';

/** 营业日与日终: the business date, moving it (with its day-end), running the day-end, the job log. */
export default function BizDatePage() {
  const qc = useQueryClient();
  const buttons = useButtons(BIZDATE_MENU);
  const current = useBizDate();
  const date = current.data?.businessDate;
  const items = useQuery(dayEndQueries.items(date));
  // The job log is a list (refreshed by the update itself); the date and its items are not.
  const refresh = () => void qc.invalidateQueries({ queryKey: bizDateKeys.all });
  // The date whose day-end 运行日终 is waiting for: its progress is shown meanwhile.
  const [running, setRunning] = useState<string>();
  const run = async () => {
    setRunning(date);
    const r = await update(BIZDATE_PATHS.runDayEnd, undefined, {
      confirm: `此操作将对营业日 ${date ?? ''} 运行日终！ 是否继续？`,
    })
      .catch(() => null)
      .finally(() => setRunning(undefined));
    if (r?.ok) refresh();
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="bizdate-page">
      <Card title="营业日">
        <Descriptions size="small" bordered column={3}>
          <Descriptions.Item label="当前营业日">
            <span data-testid="bizdate-current">{date ?? ''}</span>
          </Descriptions.Item>
          <Descriptions.Item label="来源">
            {current.data ? BIZDATE_SOURCE_LABELS[current.data.source] : ''}
          </Descriptions.Item>
          <Descriptions.Item label="最近记账日">{current.data?.lastPostingDate ?? '—'}</Descriptions.Item>
        </Descriptions>
        {buttons.has('save') ? (
          <BizDateMove onMoved={refresh} extra={<Button onClick={() => void run()}>运行日终</Button>} />
        ) : null}
        {running ? <DayEndProgress from={running} to={running} /> : null}
      </Card>
      <Card title={`逾期明细（营业日 ${date ?? ''}）`} size="small">
        <Table<DayEndItem>
          size="small"
          rowKey={(r) => `${r.contBizCode}-${r.period}`}
          data-testid="dayend-items"
          dataSource={items.data ?? []}
          pagination={false}
          // Ten columns: on a narrow screen the table scrolls inside its card, not the page.
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: '暂无逾期（或该营业日尚未运行日终）' }}
          columns={[
            { title: '合同号', dataIndex: 'contractNo' },
            { title: '期次', dataIndex: 'period' },
            { title: '还款日', dataIndex: 'dueDate' },
            { title: '逾期天数', dataIndex: 'overdueDays' },
            {
              title: '逾期本金',
              dataIndex: 'principalOverdue',
              align: 'right',
              render: (v: string) => formatMoney(v),
            },
            {
              title: '逾期利息',
              dataIndex: 'interestOverdue',
              align: 'right',
              render: (v: string | null) => (v === null ? '—' : formatMoney(v)),
            },
            {
              title: '逾期费用',
              dataIndex: 'feeOverdue',
              align: 'right',
              render: (v: string | null) => (v === null ? '—' : formatMoney(v)),
            },
            {
              title: '当日罚息',
              dataIndex: 'penaltyOfDay',
              align: 'right',
              render: (v: string) => formatMoney(v),
            },
            {
              title: '累计罚息',
              dataIndex: 'penaltyAccrued',
              align: 'right',
              render: (v: string) => formatMoney(v),
            },
            {
              title: '未付罚息',
              dataIndex: 'penaltyOwed',
              align: 'right',
              render: (v: string | null) => (v === null ? '—' : formatMoney(v)),
            },
          ]}
        />
      </Card>
      <Card title="日终作业日志" size="small">
        <ListPage<DayEndRun>
          source={BIZDATE_PATHS.dayEndList}
          rowKey="id"
          columns={[
            { title: '营业日', dataIndex: 'businessDate', key: 'businessDate' },
            {
              title: '触发',
              key: 'trigger',
              render: (_: unknown, r: DayEndRun) => DAY_END_TRIGGER_LABELS[r.trigger],
            },
            {
              title: '状态',
              key: 'state',
              render: (_: unknown, r: DayEndRun) => (
                <Tag color={r.state === 'done' ? 'green' : r.state === 'failed' ? 'red' : 'blue'}>
                  {DAY_END_STATE_LABELS[r.state]}
                </Tag>
              ),
            },
            {
              title: '开始',
              key: 'startedAt',
              render: (_: unknown, r: DayEndRun) => formatDateTime(r.startedAt),
            },
            {
              title: '结束',
              key: 'endedAt',
              render: (_: unknown, r: DayEndRun) => (r.endedAt ? formatDateTime(r.endedAt) : ''),
            },
            { title: '执行人', key: 'by', render: (_: unknown, r: DayEndRun) => r.startedByName ?? '系统' },
            { title: '合同数', dataIndex: 'contracts', key: 'contracts' },
            { title: '逾期期次', dataIndex: 'overdueItems', key: 'overdueItems' },
            {
              title: '当日罚息',
              key: 'penaltyOfDay',
              render: (_: unknown, r: DayEndRun) => formatMoney(r.penaltyOfDay),
            },
            { title: '新增提醒', dataIndex: 'remindersAdded', key: 'remindersAdded' },
            { title: '错误', key: 'error', render: (_: unknown, r: DayEndRun) => r.error ?? '' },
          ]}
        />
      </Card>
    </Space>
  );
}
