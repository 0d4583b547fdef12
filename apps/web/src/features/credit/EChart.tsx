import { useEffect, useRef } from 'react';
import { init, use as registerEcharts, type ComposeOption, type ECharts } from 'echarts/core';
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

registerEcharts([BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type BarOption = ComposeOption<
  BarSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

/**
 * A bar chart on echarts directly (tree-shaken core). echarts-for-react is not used: its tslib
 * dependency is missing from the installed tree and breaks the production build.
 */
export function BarEChart({ option, height }: { option: BarOption; height: number }) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  useEffect(() => {
    if (!el.current) return;
    const c = init(el.current);
    chart.current = c;
    const onResize = () => c.resize();
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      c.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);
  return <div ref={el} style={{ height, width: '100%' }} />;
}
