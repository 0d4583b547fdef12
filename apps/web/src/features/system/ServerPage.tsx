import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Row, Space, Typography, type DescriptionsProps } from 'antd';
import type { ServerStatus } from '@portal/contract/server-monitor';
import type { ScreenProps } from '../../shared/ui/screen';
import { systemQueries } from './api';

/** Read again this often while the screen is open. */
const REFRESH_MS = 10_000;

const MB = 1024 * 1024;

/** Bytes as MB with one decimal (`512.0 MB`). */
export function formatMb(bytes: number): string {
  return `${(bytes / MB).toFixed(1)} MB`;
}

/** Seconds as days, hours, minutes (`1天2小时3分`); under a minute, `N秒`. */
export function formatUptime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s}秒`;
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3_600);
  const minutes = Math.floor((s % 3_600) / 60);
  return `${days ? `${days}天` : ''}${days || hours ? `${hours}小时` : ''}${minutes}分`;
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

type Section = [title: string, items: DescriptionsProps['items']];
const item = (label: string, children: string | number) => ({ key: label, label, children });

/** The screen's cards, RuoYi's 服务监控 laid out for a Node server. */
function sections(s: ServerStatus): Section[] {
  return [
    [
      '服务信息',
      [
        item('进程号', s.pid),
        item('Node版本', s.nodeVersion),
        item('运行时长', formatUptime(s.uptimeSeconds)),
      ],
    ],
    [
      '内存',
      [
        item('常驻内存', formatMb(s.memory.rssBytes)),
        item(
          '堆内存（已用/总量）',
          `${formatMb(s.memory.heapUsedBytes)} / ${formatMb(s.memory.heapTotalBytes)}`,
        ),
        item('堆外内存', formatMb(s.memory.externalBytes)),
      ],
    ],
    [
      '事件循环延迟（最近30秒）',
      [
        item('中位数', ms(s.eventLoopDelayMs.p50)),
        item('P99', ms(s.eventLoopDelayMs.p99)),
        item('最大', ms(s.eventLoopDelayMs.max)),
      ],
    ],
    [
      '数据库连接池与会话',
      [
        item('连接（使用中/空闲/上限）', `${s.dbPool.inUse} / ${s.dbPool.idle} / ${s.dbPool.max}`),
        item('等待连接的查询', s.dbPool.waiting),
        item('在线会话（全部服务）', s.sessions.active),
        item('本服务缓存的会话', s.sessions.cached),
      ],
    ],
  ];
}

/**
 * 服务监控 (docs/operations.md "Monitoring"): the serving process's uptime, memory, event-loop
 * delay, database pool and sessions, the figures its /metrics publishes. Behind a load balancer each
 * read may come from another server: the process id says which.
 */
export default function ServerPage(_props: ScreenProps) {
  const status = useQuery(systemQueries.serverStatus(REFRESH_MS));
  const s = status.data;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle">
      <Space>
        <Typography.Text type="secondary">每{REFRESH_MS / 1000}秒自动刷新</Typography.Text>
        <Button onClick={() => void status.refetch()} loading={status.isFetching}>
          刷新
        </Button>
      </Space>
      {status.isError ? <Alert type="error" showIcon message="读取服务状态失败" /> : null}
      {s ? (
        <Row gutter={[16, 16]}>
          {sections(s).map(([title, items]) => (
            <Col xs={24} lg={12} key={title}>
              <Card title={title} size="small">
                <Descriptions column={1} size="small" bordered items={items} />
              </Card>
            </Col>
          ))}
        </Row>
      ) : null}
    </Space>
  );
}
