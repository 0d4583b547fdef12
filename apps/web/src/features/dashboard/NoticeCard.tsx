import { useQuery } from '@tanstack/react-query';
import { Col, Collapse, Typography } from 'antd';
import { useMessageCount } from '../../shared/messages/use-message-count';
import { dashboardQueries } from './api';
import { Widget } from './Widget';

/**
 * 通知公告 meant for me, in force now; shown only when there is one. Plain text, never HTML. Asked
 * again whenever the message count's `notices` cue moves (a notice published to me, edited,
 * withdrawn, begun or ended), so an open dashboard follows without a reload, by the bell's own poll.
 */
export function NoticeCard() {
  const count = useMessageCount();
  const cue = count.data?.data.notices;
  // Asked once the count has answered (or failed), not once before it and again after.
  const query = useQuery(dashboardQueries.notices(cue ?? '', !count.isPending));
  if (!query.data || query.data.length === 0) return null;
  return (
    <Col span={24}>
      <Widget title="通知公告" query={query} testId="widget-notices">
        {(list) => (
          <Collapse
            size="small"
            items={list.map((n) => ({
              key: n.id,
              label: n.title,
              extra: <Typography.Text type="secondary">{n.publishFrom}</Typography.Text>,
              children: <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{n.content}</div>,
            }))}
            defaultActiveKey={list.length > 0 ? [list[0]!.id] : []}
          />
        )}
      </Widget>
    </Col>
  );
}
