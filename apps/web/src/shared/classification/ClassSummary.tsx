import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Input, Space, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import {
  MIGRATION_FROM_LABELS,
  MIGRATION_TO_LABELS,
  type ClassDistributionRow,
  type MigrationFrom,
} from '@portal/contract/classification';
import { formatMoney } from '@portal/contract/format';
import { classSummaryQueries, previousMonth, validMigration } from './api';

/** Count and 本金余额 per class on a date (default the business date), with the totals. */
export function ClassDistributionTable({ asOf }: { asOf?: string | undefined }) {
  const q = useQuery(classSummaryQueries.distribution(asOf));
  const d = q.data;
  const columns: TableColumnsType<ClassDistributionRow> = [
    { title: '五级分类', dataIndex: 'label', key: 'label', width: 90 },
    { title: '笔数', dataIndex: 'contracts', key: 'contracts', width: 80, align: 'right' },
    {
      title: '本金余额',
      key: 'principalOutstanding',
      width: 160,
      align: 'right',
      render: (_, r) => formatMoney(r.principalOutstanding),
    },
  ];
  if (q.isError)
    return (
      <Alert type="warning" showIcon message={q.error instanceof Error ? q.error.message : '加载失败'} />
    );
  return (
    <Table<ClassDistributionRow>
      data-testid="class-distribution"
      size="small"
      rowKey="assetClass"
      loading={q.isPending}
      pagination={false}
      columns={columns}
      dataSource={d?.rows ?? []}
      title={() => (d ? `分类分布（${d.asOf}，履约中合同）` : '分类分布')}
      summary={() =>
        d ? (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0}>
              <strong>合计</strong>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="right">
              {d.totals.contracts}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right">
              {formatMoney(d.totals.principalOutstanding)}
            </Table.Summary.Cell>
          </Table.Summary.Row>
        ) : null
      }
    />
  );
}

interface MatrixRow {
  from: MigrationFrom;
  [to: string]: number | string;
}

/** The from-class × to-class matrix of contract counts between two month ends. */
export function ClassMigrationTable({ toMonth }: { toMonth: string }) {
  const [to, setTo] = useState(toMonth);
  const [from, setFrom] = useState(previousMonth(toMonth));
  const valid = validMigration(from, to);
  const q = useQuery(classSummaryQueries.migration(from, to));
  const m = q.data;
  const rows: MatrixRow[] = m ? m.froms.map((f) => ({ from: f, ...m.cells[f] })) : [];
  const columns: TableColumnsType<MatrixRow> = [
    {
      title: '月初 \\ 月末',
      key: 'from',
      width: 100,
      render: (_, r) => MIGRATION_FROM_LABELS[r.from],
    },
    ...(m?.tos ?? []).map((t) => ({
      title: MIGRATION_TO_LABELS[t],
      dataIndex: t,
      key: t,
      width: 70,
      align: 'right' as const,
    })),
  ];
  return (
    <div data-testid="class-migration">
      <Space style={{ marginBottom: 8 }} wrap>
        <Input
          aria-label="起始月份"
          addonBefore="起始月份"
          style={{ width: 200 }}
          value={from}
          onChange={(e) => setFrom(e.target.value.trim())}
        />
        <Input
          aria-label="截止月份"
          addonBefore="截止月份"
          style={{ width: 200 }}
          value={to}
          onChange={(e) => setTo(e.target.value.trim())}
        />
      </Space>
      {!valid ? (
        <Typography.Text type="danger">月份格式为YYYY-MM，截止月份必须晚于起始月份</Typography.Text>
      ) : q.isError ? (
        <Alert type="warning" showIcon message={q.error instanceof Error ? q.error.message : '加载失败'} />
      ) : (
        <Table<MatrixRow>
          size="small"
          rowKey="from"
          loading={q.isPending}
          pagination={false}
          columns={columns}
          dataSource={rows}
          title={() =>
            m ? `分类迁徙（${m.fromDate ?? '无日终'} → ${m.toDate ?? '无日终'}，笔数）` : '分类迁徙'
          }
        />
      )}
    </div>
  );
}

/** Distribution and migration side by side. */
export function ClassSummaryCard({ asOf, month }: { asOf?: string | undefined; month: string }) {
  return (
    <Card size="small" title="五级分类" data-testid="class-summary">
      <Space direction="vertical" style={{ width: '100%' }}>
        <ClassDistributionTable asOf={asOf} />
        <ClassMigrationTable toMonth={month} />
      </Space>
    </Card>
  );
}
