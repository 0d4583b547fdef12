import { useMemo } from 'react';
import { use as registerEcharts, type ComposeOption } from 'echarts/core';
import { GraphChart, type GraphSeriesOption } from 'echarts/charts';
import type { TooltipComponentOption } from 'echarts/components';
import { REL_STATE_LABELS, REL_TYPE_LABELS, REL_TYPES, type RelationGraph } from '@portal/contract/crm';
import { EChart } from '../../shared/ui/EChart';

// The graph series is only needed here: registered in this file so other pages' bundles do not
// carry it (the shared EChart registers the renderer, tooltip and legend).
registerEcharts([GraphChart]);

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
  const option = useMemo(() => optionOf(graph), [graph]);
  return <EChart<Option> option={option} height={height} testId="relation-graph" />;
}
