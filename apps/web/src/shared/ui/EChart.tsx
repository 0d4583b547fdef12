import { useEffect, useRef } from 'react';
import {
  init,
  use as registerEcharts,
  type ComposeOption,
  type ECharts,
  type EChartsCoreOption,
} from 'echarts/core';
import { BarChart, LineChart, type BarSeriesOption, type LineSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  TooltipComponent,
  type GridComponentOption,
  type LegendComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

// Only the pieces most of the product's charts use, so the echarts chunk stays small. A page
// needing another series type (the CRM relation graph) registers it in its own file with
// `registerEcharts` from 'echarts/core' and passes its own option type.
registerEcharts([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type ChartOption = ComposeOption<
  BarSeriesOption | LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

/** What a click on a bar or a point gives: its category (x) index and series name. */
export interface ChartClick {
  dataIndex: number;
  seriesName: string;
}

/**
 * The one echarts binding of the app (tree-shaken core). `O` is the option type: bar and line
 * charts by default; a page that registered other series passes its own ComposeOption. echarts-for-react is not used: it imports
 * `tslib` without declaring it, and tslib is not installed, so it cannot be bundled. Plotted
 * numbers are for drawing only; figures shown as text come from the server's decimal strings.
 */
export function EChart<O extends EChartsCoreOption = ChartOption>({
  option,
  height,
  onClick,
  testId,
}: {
  option: O;
  height: number;
  onClick?: (c: ChartClick) => void;
  testId?: string;
}) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const clickRef = useRef(onClick);
  clickRef.current = onClick;
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const c = init(node, undefined, { renderer: 'canvas' });
    chart.current = c;
    c.on('click', (p) => clickRef.current?.({ dataIndex: p.dataIndex, seriesName: p.seriesName ?? '' }));
    const observer = new ResizeObserver(() => c.resize());
    observer.observe(node);
    return () => {
      observer.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);
  return (
    <div
      ref={el}
      data-testid={testId}
      style={{ height, width: '100%', cursor: onClick ? 'pointer' : undefined }}
    />
  );
}
