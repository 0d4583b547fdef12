import { useEffect, useRef } from 'react';
import type { ComposeOption, ECharts, EChartsCoreOption } from 'echarts/core';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';

let echarts: Promise<typeof import('./echarts-setup')> | undefined;

/** echarts with the shared pieces registered (once; again after a failed load). */
function loadEcharts() {
  echarts ??= import('./echarts-setup').catch((err: unknown) => {
    echarts = undefined;
    throw err;
  });
  return echarts;
}

// echarts (≈190 KB gzip, 580 KB to compile and evaluate on the main thread) is not part of the
// chunk of a screen with charts, and it is asked for only once a chart has mounted (its data is
// in) and the page is idle after that render: the screen's figures render and show first, and
// its evaluation no longer runs before the dashboard's first figure (it did when the screen's
// chunk asked for it; bench/README.md "First screen", eighth pass).

/** Runs `then` once the browser is idle (after the render in hand has been painted). */
function whenIdle(then: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(then, { timeout: 1000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(then, 0);
  return () => clearTimeout(id);
}

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
  // The option of the latest render, drawn once echarts has loaded.
  const optionRef = useRef(option);
  optionRef.current = option;
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    let unmounted = false;
    let observer: ResizeObserver | undefined;
    let drawn: ECharts | undefined;
    const cancelWait = whenIdle(() => {
      void loadEcharts()
        .then(({ init }) => {
          if (unmounted) return;
          const c = init(node, undefined, { renderer: 'canvas' });
          drawn = c;
          chart.current = c;
          c.on('click', (p) =>
            clickRef.current?.({ dataIndex: p.dataIndex, seriesName: p.seriesName ?? '' }),
          );
          c.setOption(optionRef.current, { notMerge: true });
          observer = new ResizeObserver(() => c.resize());
          observer.observe(node);
        })
        .catch((err: unknown) => console.error(err));
    });
    return () => {
      unmounted = true;
      cancelWait();
      observer?.disconnect();
      drawn?.dispose();
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
