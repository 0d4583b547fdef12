import { useState } from 'react';
import { Form, Input, Tag, type TableColumnsType } from 'antd';
import { formatDateTime } from '@portal/contract/format';
import { button } from '@portal/contract/menus';
import { MONITOR_MENUS, MONITOR_PATHS, type OnlineSessionView } from '@portal/contract/monitor';
import { actionsColumn } from '../../shared/list/RowActions';
import { ListPage } from '../../shared/list/ListPage';
import { dateColumn } from '../../shared/list/columns';
import type { ScreenProps } from '../../shared/ui/screen';
import { forceLogout } from './api';
import { UserAgentDetailModal, userAgentColumns } from './user-agent-view';

const MENU = MONITOR_MENUS.online;

/** 在线用户: live sessions; 强退 ends one at once on every server. */
export default function OnlinePage(_props: ScreenProps) {
  const [detail, setDetail] = useState<OnlineSessionView>();
  const force = async (s: OnlineSessionView) => {
    try {
      // The list refreshes through the update (refreshListsOnUpdate).
      await forceLogout(s);
    } catch {
      // warned by the request layer
    }
  };
  const columns: TableColumnsType<OnlineSessionView> = [
    {
      title: '用户',
      key: 'user',
      render: (_: unknown, r) => (
        <>
          {r.realName}（{r.userName}）{r.current ? <Tag color="blue">当前会话</Tag> : null}
        </>
      ),
    },
    { title: '所属组织', dataIndex: 'orgName', key: 'orgName' },
    { title: 'IP地址', dataIndex: 'ip', key: 'ip' },
    ...userAgentColumns<OnlineSessionView>(),
    dateColumn('登录时间', 'createdAt', { withTime: true, width: 170 }),
    dateColumn('最后活动', 'lastSeenAt', { withTime: true, width: 170 }),
    actionsColumn<OnlineSessionView>((r) => [
      { label: '详情', onClick: () => setDetail(r) },
      {
        label: '强退',
        code: button(MENU, 'forceLogout'),
        danger: true,
        hidden: r.current,
        onClick: () => void force(r),
      },
    ]),
  ];
  return (
    <>
      <ListPage<OnlineSessionView>
        source={MONITOR_PATHS.onlineList}
        rowKey="sessionId"
        columns={columns}
        filters={
          <>
            <Form.Item name="userName" label="用户">
              <Input allowClear maxLength={64} placeholder="用户名或姓名" />
            </Form.Item>
            <Form.Item name="ip" label="IP地址">
              <Input allowClear maxLength={64} />
            </Form.Item>
          </>
        }
      />
      {detail ? (
        <UserAgentDetailModal
          title="会话详情"
          userAgent={detail.userAgent}
          onClose={() => setDetail(undefined)}
          facts={[
            { label: '用户', value: `${detail.realName}（${detail.userName}）` },
            { label: '所属组织', value: detail.orgName },
            { label: 'IP地址', value: detail.ip },
            { label: '登录时间', value: formatDateTime(detail.createdAt) },
            { label: '最后活动', value: formatDateTime(detail.lastSeenAt) },
          ]}
        />
      ) : null}
    </>
  );
}
