import { useEffect, useMemo, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, type BarSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  TooltipComponent,
  type GridComponentOption,
  type LegendComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { formatMoney } from '@portal/contract/format';
import type { PlanItem } from '@portal/contract/plan/schedule';

// Only the pieces this chart uses, so the echarts chunk stays small.
echarts.use([BarChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

type Option = echarts.ComposeOption<
  BarSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption
>;

const compact = new Intl.NumberFormat('zh-CN', { notation: 'compact', maximumFractionDigits: 2 });

const SERIES: { key: 'principal' | 'interest' | 'fee'; name: string; color: string }[] = [
  { key: 'principal', name: '本金', color: '#1890ff' },
  { key: 'interest', name: '利息', color: '#fa8c16' },
  { key: 'fee', name: '费用', color: '#52c41a' },
];

export function planChartOption(items: readonly PlanItem[]): Option {
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

/**
 * The sample plan's principal, interest and fee per period as stacked bars. A small echarts binding
 * of its own: echarts-for-react 3.0.6 imports `tslib` without declaring it, and tslib is not
 * installed in this workspace, so that wrapper cannot be bundled.
 */
export function PlanChart({ items, height = 300 }: { items: readonly PlanItem[]; height?: number }) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const option = useMemo(() => planChartOption(items), [items]);

  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const instance = echarts.init(node, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(node);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return (
    <div ref={el} className="ruler-plan-chart" data-testid="plan-chart" style={{ width: '100%', height }} />
  );
}
