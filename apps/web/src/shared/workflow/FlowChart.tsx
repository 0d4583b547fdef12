import type { ProcessView, StepStatus } from '@portal/contract/workflow';
import { formatDateTime } from '@portal/contract/format';

/**
 * 流程图: the process of the document's latest round drawn left to right — 提交, each step (with
 * its role and who decided it), 结束 — the current step highlighted. Plain SVG, no library.
 */
type NodeStatus = StepStatus | 'start' | 'end-ok' | 'end-no' | 'end-open';

interface Node {
  key: string;
  title: string;
  sub: string;
  detail: string;
  status: NodeStatus;
}

const STYLE: Record<NodeStatus, { fill: string; stroke: string; text: string }> = {
  start: { fill: '#e6f4ff', stroke: '#1890ff', text: '#1f1f1f' },
  done: { fill: '#f6ffed', stroke: '#52c41a', text: '#1f1f1f' },
  current: { fill: '#1890ff', stroke: '#0958d9', text: '#ffffff' },
  waiting: { fill: '#fafafa', stroke: '#d9d9d9', text: '#8c8c8c' },
  rejected: { fill: '#fff1f0', stroke: '#ff4d4f', text: '#1f1f1f' },
  'end-ok': { fill: '#f6ffed', stroke: '#52c41a', text: '#389e0d' },
  'end-no': { fill: '#fff1f0', stroke: '#ff4d4f', text: '#cf1322' },
  'end-open': { fill: '#fafafa', stroke: '#d9d9d9', text: '#8c8c8c' },
};

const W = 150;
const H = 70;
const GAP = 46;
const PAD = 12;

export function FlowChart({ view }: { view: ProcessView }) {
  if (!view.procName) return <div data-testid="flow-chart">单据尚未提交审批，暂无流程</div>;
  const nodes: Node[] = [
    {
      key: 'start',
      title: '提交',
      sub: view.submitterName ?? '',
      detail: view.startTime ? formatDateTime(view.startTime) : '',
      status: 'start',
    },
    ...view.steps.map((s) => ({
      key: `step-${s.no}`,
      title: `${s.no}. ${s.name}`,
      sub: s.actorName ?? s.roleName,
      detail: s.at ? formatDateTime(s.at) : s.status === 'current' ? '待审批' : '',
      status: s.status,
    })),
    {
      key: 'end',
      title: view.status === 'approved' ? '已审核' : view.status === 'rejected' ? '已驳回' : '结束',
      sub: '',
      detail: view.endTime ? formatDateTime(view.endTime) : '',
      status: view.status === 'approved' ? 'end-ok' : view.status === 'rejected' ? 'end-no' : 'end-open',
    },
  ];
  const width = PAD * 2 + nodes.length * W + (nodes.length - 1) * GAP;
  const height = PAD * 2 + H;
  return (
    <div className="wf-flow" data-testid="flow-chart" style={{ overflowX: 'auto' }}>
      <svg
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${view.procName}流程图`}
        style={{ fontFamily: 'inherit' }}
      >
        <defs>
          <marker
            id="wf-arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="8"
            markerHeight="8"
            orient="auto"
          >
            <path d="M0,0 L10,5 L0,10 z" fill="#8c8c8c" />
          </marker>
        </defs>
        {nodes.map((n, i) => {
          const x = PAD + i * (W + GAP);
          const s = STYLE[n.status];
          const round = n.key === 'start' || n.key === 'end' ? H / 2 : 6;
          return (
            <g key={n.key} data-testid="flow-node" data-status={n.status} data-title={n.title}>
              {i > 0 ? (
                <line
                  x1={x - GAP + 2}
                  y1={PAD + H / 2}
                  x2={x - 3}
                  y2={PAD + H / 2}
                  stroke="#8c8c8c"
                  strokeWidth={1.5}
                  markerEnd="url(#wf-arrow)"
                />
              ) : null}
              <rect
                x={x}
                y={PAD}
                width={W}
                height={H}
                rx={round}
                fill={s.fill}
                stroke={s.stroke}
                strokeWidth={n.status === 'current' ? 3 : 1.5}
              />
              <text
                x={x + W / 2}
                y={PAD + 22}
                textAnchor="middle"
                fontSize={13}
                fontWeight={600}
                fill={s.text}
              >
                {n.title}
              </text>
              <text x={x + W / 2} y={PAD + 41} textAnchor="middle" fontSize={12} fill={s.text}>
                {n.sub}
              </text>
              <text x={x + W / 2} y={PAD + 58} textAnchor="middle" fontSize={11} fill={s.text} opacity={0.8}>
                {n.detail}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
