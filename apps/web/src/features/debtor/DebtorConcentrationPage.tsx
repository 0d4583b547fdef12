import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Table } from 'antd';
import { formatMoney } from '@portal/contract/format';
import type { ConcentrationRow } from '@portal/contract/debtor';
import { EChart, type ChartOption } from '../../shared/ui/EChart';
import { debtorQueries } from './api';

/**
 * 债务人集中度: the receivables of the effective contracts by debtor, the 10 largest with their
 * share of the portfolio and their debtor line (docs/credit.md "Concentration").
 */
export default function DebtorConcentrationPage() {
  const q = useQuery(debtorQueries.concentration());
  const c = q.data;
  const option = useMemo<ChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 200, right: 40, top: 20, bottom: 30 },
      xAxis: { type: 'value', axisLabel: { formatter: '{value}%' } },
      yAxis: { type: 'category', inverse: true, data: (c?.top ?? []).map((r) => r.debtorName) },
      series: [{ type: 'bar', name: '占比（%）', data: (c?.top ?? []).map((r) => Number(r.share)) }],
    }),
    [c],
  );
  return (
    <Card title="债务人集中度" data-testid="debtor-concentration" loading={q.isLoading}>
      <Descriptions size="small" column={4} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="应收账款合计">{formatMoney(c?.total)}</Descriptions.Item>
        <Descriptions.Item label="债务人数">{c?.debtors ?? 0}</Descriptions.Item>
        <Descriptions.Item label="前十大占比">{c ? `${c.topShare}%` : '—'}</Descriptions.Item>
        <Descriptions.Item label="待匹配债务人">{formatMoney(c?.unmatched)}</Descriptions.Item>
      </Descriptions>
      <EChart option={option} height={320} testId="concentration-chart" />
      <Table<ConcentrationRow>
        rowKey={(r) => r.debtorCode ?? r.debtorName}
        dataSource={c?.top ?? []}
        pagination={false}
        columns={[
          { title: '排名', key: 'rank', width: 70, render: (_, __, i) => i + 1 },
          { title: '债务人', dataIndex: 'debtorName', key: 'debtorName' },
          { title: '应收账款', key: 'exposure', align: 'right', render: (_, r) => formatMoney(r.exposure) },
          { title: '占比', key: 'share', align: 'right', render: (_, r) => `${r.share}%` },
          { title: '合同数', dataIndex: 'contracts', key: 'contracts', align: 'right' },
          {
            title: '债务人额度',
            key: 'limit',
            align: 'right',
            render: (_, r) => (r.limitAmount ? formatMoney(r.limitAmount) : '不限'),
          },
        ]}
      />
    </Card>
  );
}
