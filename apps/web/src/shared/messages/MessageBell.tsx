import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Empty, List, Modal, Popover, Space, Tag, Tooltip, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { formatDateTime } from '@portal/contract/format';
import {
  MESSAGE_PATHS,
  type MessageCount,
  type MessageKind,
  type MessageView,
} from '@portal/contract/messages';
import { NOTICE_PATHS, type NoticeShown } from '@portal/contract/notices';
import { post, type Revalidated } from '../request/http';
import { docViewUrl } from '../workflow/doc-links';
import { messageKeys, messageQueries } from './api';
import { useMessageCount } from './use-message-count';

const KIND_COLORS: Record<MessageKind, string> = {
  todo: 'blue',
  rejected: 'red',
  circulate: 'purple',
  dueSoon: 'orange',
  overdue: 'volcano',
  jobFailed: 'red',
  notice: 'green',
  collect: 'gold',
  promiseBroken: 'magenta',
  guaranteeExpiry: 'cyan',
};

const JOBS_SCREEN = '/system/job';

/**
 * 消息中心 in the navbar (docs/operations.md "Messages"): the unread count (useMessageCount); the
 * latest messages open their document (an announcement opens in a dialog) and are marked read.
 */
export function MessageBell() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  // 通知公告 opened from the list: the announcement, or 'gone' once it is no longer in force.
  const [notice, setNotice] = useState<NoticeShown | 'gone' | null>(null);
  const count = useMessageCount();
  const latestId = count.data?.data.latestId ?? 0;
  const list = useQuery(messageQueries.latest(latestId, open));
  const refresh = async (next?: MessageCount) => {
    if (next) qc.setQueryData<Revalidated<MessageCount>>(messageKeys.count, { etag: null, data: next });
    await qc.invalidateQueries({ queryKey: messageKeys.list });
  };
  const openMessage = async (m: MessageView) => {
    if (!m.read)
      await refresh(await post<MessageCount>(MESSAGE_PATHS.read, { ids: [m.id] }).catch(() => undefined));
    if (m.kind === 'notice') {
      setOpen(false);
      const mine = await post<NoticeShown[]>(NOTICE_PATHS.mine, undefined, { loading: false }).catch(
        () => [],
      );
      setNotice(mine.find((n) => String(n.id) === m.docCode) ?? 'gone');
      return;
    }
    // A failed job opens 定时任务, where its history says why.
    const url = m.kind === 'jobFailed' ? JOBS_SCREEN : docViewUrl(m.docType, m.docCode);
    setOpen(false);
    if (url) void navigate(url);
  };
  const readAll = async () => {
    await refresh(await post<MessageCount>(MESSAGE_PATHS.readAll).catch(() => undefined));
  };
  const unread = count.data?.data.unread ?? 0;
  const content = (
    <div style={{ width: 380 }} data-testid="message-list">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }}>
        <Typography.Text strong>消息中心</Typography.Text>
        <Button size="small" type="link" disabled={unread === 0} onClick={() => void readAll()}>
          全部已读
        </Button>
      </Space>
      {list.data?.list.length ? (
        <List<MessageView>
          size="small"
          dataSource={list.data.list}
          style={{ maxHeight: 420, overflow: 'auto' }}
          renderItem={(m) => (
            <List.Item
              style={{ cursor: 'pointer', opacity: m.read ? 0.6 : 1 }}
              onClick={() => void openMessage(m)}
              data-testid="message-item"
            >
              <List.Item.Meta
                title={
                  <Space size={4}>
                    <Tag color={KIND_COLORS[m.kind]}>{m.kindLabel}</Tag>
                    {m.read ? null : <Badge status="processing" />}
                  </Space>
                }
                description={
                  <>
                    <div style={{ color: 'rgba(0,0,0,0.88)' }}>{m.title}</div>
                    <div>{formatDateTime(m.createdAt)}</div>
                  </>
                }
              />
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={list.isFetching ? '加载中' : '暂无消息'} />
      )}
    </div>
  );
  return (
    <>
      <Modal
        open={notice !== null}
        title={notice && notice !== 'gone' ? notice.title : '通知公告'}
        footer={null}
        onCancel={() => setNotice(null)}
        destroyOnHidden
      >
        {notice === 'gone' ? (
          <Empty description="该公告已撤回或已过期" />
        ) : notice ? (
          <div data-testid="message-notice">
            <Typography.Text type="secondary">
              {notice.publishFrom} 至 {notice.publishTo}
            </Typography.Text>
            <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', marginTop: 8 }}>
              {notice.content}
            </div>
          </div>
        ) : null}
      </Modal>
      <Popover content={content} trigger="click" open={open} onOpenChange={setOpen} placement="bottomRight">
        {/* No tooltip while the list is open: it would cover 全部已读. */}
        <Tooltip title={open ? null : '消息中心'}>
          <span className="navbar-icon" role="button" aria-label="消息中心" data-testid="message-bell">
            <Badge count={unread} size="small" overflowCount={99} data-testid="message-count">
              <BellOutlined style={{ fontSize: 18 }} />
            </Badge>
          </span>
        </Tooltip>
      </Popover>
    </>
  );
}
