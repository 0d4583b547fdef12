import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Empty, List, Popover, Space, Tag, Tooltip, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import type { Page } from '@portal/contract/api';
import { formatDateTime } from '@portal/contract/format';
import {
  MESSAGE_PATHS,
  MESSAGE_POLL_MS,
  type MessageCount,
  type MessageKind,
  type MessageView,
} from '@portal/contract/messages';
import { getRevalidated, post, type Revalidated } from '../request/http';
import { docViewUrl } from '../workflow/doc-links';

const KIND_COLORS: Record<MessageKind, string> = {
  todo: 'blue',
  rejected: 'red',
  circulate: 'purple',
  dueSoon: 'orange',
  overdue: 'volcano',
};

const COUNT_KEY = ['messages', 'count'] as const;
const LIST_KEY = ['messages', 'list'] as const;

/**
 * 消息中心 in the navbar (docs/operations.md "Messages"): the unread count, asked every
 * MESSAGE_POLL_MS and on focus by a background conditional GET (it does not keep an idle session alive); the
 * latest messages open their document and are marked read.
 */
export function MessageBell() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const count = useQuery({
    queryKey: COUNT_KEY,
    // Revalidated by ETag: an unchanged count costs no body and keeps the same object.
    queryFn: () =>
      getRevalidated<MessageCount>(
        MESSAGE_PATHS.count,
        qc.getQueryData<Revalidated<MessageCount>>(COUNT_KEY),
        { loading: false },
      ),
    refetchInterval: MESSAGE_POLL_MS,
    refetchOnWindowFocus: true,
  });
  const latestId = count.data?.data.latestId ?? 0;
  const list = useQuery({
    queryKey: [...LIST_KEY, latestId],
    queryFn: () =>
      post<Page<MessageView>>(MESSAGE_PATHS.list, { pageNum: 1, pageSize: 10 }, { loading: false }),
    enabled: open,
  });
  const refresh = async (next?: MessageCount) => {
    if (next) qc.setQueryData<Revalidated<MessageCount>>(COUNT_KEY, { etag: null, data: next });
    await qc.invalidateQueries({ queryKey: LIST_KEY });
  };
  const openMessage = async (m: MessageView) => {
    if (!m.read)
      await refresh(await post<MessageCount>(MESSAGE_PATHS.read, { ids: [m.id] }).catch(() => undefined));
    const url = docViewUrl(m.docType, m.docCode);
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
    <Popover content={content} trigger="click" open={open} onOpenChange={setOpen} placement="bottomRight">
      <Tooltip title="消息中心">
        <span className="navbar-icon" role="button" aria-label="消息中心" data-testid="message-bell">
          <Badge count={unread} size="small" overflowCount={99} data-testid="message-count">
            <BellOutlined style={{ fontSize: 18 }} />
          </Badge>
        </span>
      </Tooltip>
    </Popover>
  );
}
