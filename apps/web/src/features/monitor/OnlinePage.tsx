import { Button, Form, Input, Tag, type TableColumnsType } from 'antd';
import { button } from '@portal/contract/menus';
import { MONITOR_MENUS, MONITOR_PATHS, type OnlineSessionView } from '@portal/contract/monitor';
import { ListPage } from '../../shared/list/ListPage';
import { dateColumn } from '../../shared/list/columns';
import { Auth } from '../../shared/permission/Auth';
import type { ScreenProps } from '../../shared/ui/screen';
import { forceLogout } from './api';

const MENU = MONITOR_MENUS.online;

/** 在线用户: live sessions; 强退 ends one at once on every server. */
export default function OnlinePage(_props: ScreenProps) {
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
    { title: '浏览器', dataIndex: 'userAgent', key: 'userAgent', ellipsis: true },
    dateColumn('登录时间', 'createdAt', { withTime: true, width: 170 }),
    dateColumn('最后活动', 'lastSeenAt', { withTime: true, width: 170 }),
    {
      title: '操作',
      key: 'actions',
      width: 80,
      render: (_: unknown, r) =>
        r.current ? null : (
          <Auth code={button(MENU, 'forceLogout')}>
            <Button type="link" size="small" danger onClick={() => void force(r)}>
              强退
            </Button>
          </Auth>
        ),
    },
  ];
  return (
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
  );
}
