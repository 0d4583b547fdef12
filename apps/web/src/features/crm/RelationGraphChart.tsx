import { useEffect, useRef } from 'react';
import { init, use as registerEcharts, type ComposeOption, type ECharts } from 'echarts/core';
import { GraphChart, type GraphSeriesOption } from 'echarts/charts';
import { LegendComponent, TooltipComponent, type TooltipComponentOption } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { REL_STATE_LABELS, REL_TYPE_LABELS, REL_TYPES, type RelationGraph } from '@portal/contract/crm';

// The graph series is only needed here; the shared EChart binding registers bar and line only.
registerEcharts([GraphChart, LegendComponent, TooltipComponent, CanvasRenderer]);

type Option = ComposeOption<GraphSeriesOption | TooltipComponentOption>;

const COLORS: Record<(typeof REL_TYPES)[number], string> = {
  supplier: '#1890ff',
  distributor: '#52c41a',
  guarantor: '#fa8c16',
};

function optionOf(graph: RelationGraph): Option {
  return {
    tooltip: {
      formatter: (p) => {
        const item = Array.isArray(p) ? p[0] : p;
        const d = item?.data as { name?: string; label?: { formatter?: string }; tip?: string } | undefined;
        return d?.tip ?? d?.name ?? '';
      },
    },
    series: [
      {
        type: 'graph',
        layout: 'force',
        roam: true,
        draggable: true,
        force: { repulsion: 320, edgeLength: 160 },
        label: { show: true, position: 'bottom' },
        edgeSymbol: ['none', 'arrow'],
        edgeLabel: { show: true, fontSize: 11, formatter: (p) => (p.data as { text?: string }).text ?? '' },
        data: graph.nodes.map((n) => ({
          id: n.compCode,
          name: n.compName,
          symbolSize: 18 + 4 * graph.links.filter((l) => l.source === n.compCode).length,
          tip: n.compName,
        })),
        links: graph.links.map((l) => ({
          source: l.source,
          target: l.target,
          text: REL_TYPE_LABELS[l.relType].replace('核心企业—', ''),
          tip: `${REL_TYPE_LABELS[l.relType]}（${REL_STATE_LABELS[l.relState]}）`,
          lineStyle: {
            color: COLORS[l.relType],
            type: l.relState === 'valid' ? 'solid' : 'dashed',
            width: 2,
            curveness: 0.1,
          },
        })),
      },
    ],
  };
}

/** 企业关系图: enterprises as nodes, relations as arrows from the core enterprise (force layout). */
export function RelationGraphChart({ graph, height = 480 }: { graph: RelationGraph; height?: number }) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const c = init(node, undefined, { renderer: 'canvas' });
    chart.current = c;
    const observer = new ResizeObserver(() => c.resize());
    observer.observe(node);
    return () => {
      observer.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(optionOf(graph), true);
  }, [graph]);
  return <div ref={el} style={{ width: '100%', height }} data-testid="relation-graph" />;
}
