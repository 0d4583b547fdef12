import { useMemo } from 'react';
import { formatMoney } from '@portal/contract/format';
import type { PlanItem } from '@portal/contract/plan/schedule';
import { EChart, type ChartOption } from '../ui/EChart';

const compact = new Intl.NumberFormat('zh-CN', { notation: 'compact', maximumFractionDigits: 2 });

const SERIES: { key: 'principal' | 'interest' | 'fee'; name: string; color: string }[] = [
  { key: 'principal', name: '本金', color: '#1890ff' },
  { key: 'interest', name: '利息', color: '#fa8c16' },
  { key: 'fee', name: '费用', color: '#52c41a' },
];

export function planChartOption(items: readonly PlanItem[]): ChartOption {
  return {
    animationDurationUpdate: 300,
    grid: { left: 16, right: 16, top: 40, bottom: 8, containLabel: true },
    legend: { top: 4, data: SERIES.map((s) => s.name) },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      // The engine's strings, formatted; the plotted numbers are for drawing only.
      formatter: (params) => {
        const first = Array.isArray(params) ? params[0] : params;
        const item = items[first?.dataIndex ?? -1];
        if (!item) return '';
        const rows = SERIES.map((s) => `${s.name}：${formatMoney(item[s.key])}`);
        return [`第${item.period}期 ${item.dueDate}`, ...rows, `合计：${formatMoney(item.total)}`].join(
          '<br/>',
        );
      },
    },
    xAxis: { type: 'category', data: items.map((i) => `第${i.period}期`) },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => compact.format(v) } },
    series: SERIES.map((s) => ({
      type: 'bar',
      name: s.name,
      stack: 'total',
      itemStyle: { color: s.color },
      emphasis: { focus: 'series' },
      // Drawing coordinates only: no arithmetic is done on these numbers.
      data: items.map((i) => Number(i[s.key])),
    })),
  };
}

/** A plan's principal, interest and fee per period as stacked bars. */
export function PlanChart({ items, height = 300 }: { items: readonly PlanItem[]; height?: number }) {
  const option = useMemo(() => planChartOption(items), [items]);
  return (
    <div className="ruler-plan-chart">
      <EChart option={option} height={height} testId="plan-chart" />
    </div>
  );
}
