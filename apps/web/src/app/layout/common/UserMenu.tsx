import { Avatar, Dropdown } from 'antd';
import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useSessionStore } from '../../../shared/session/session-store';
import { loginRedirect } from '../../router/guard';
import { logout } from '../../session-actions';

export function useLogout() {
  const navigate = useNavigate();
  const location = useLocation();
  return async () => {
    const back = `${location.pathname}${location.search}`;
    await logout();
    navigate(loginRedirect(back), { replace: true });
  };
}

/** The user menu: 修改密码 and 退出登录. */
export function UserMenu() {
  const name = useSessionStore((s) => s.name);
  const avatar = useSessionStore((s) => s.avatar);
  const openPassword = () => useSessionStore.getState().setPasswordDialogOpen(true);
  const doLogout = useLogout();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'password', label: '修改密码' },
          { type: 'divider' },
          { key: 'logout', label: '退出登录' },
        ],
        onClick: ({ key }) => (key === 'password' ? openPassword() : void doLogout()),
      }}
    >
      <span className="user-menu" role="button" aria-label="用户菜单" data-testid="user-menu">
        <Avatar size="small" src={avatar || undefined} icon={<UserOutlined />} />
        <span className="user-menu__name">{name}</span>
        <DownOutlined style={{ fontSize: 10 }} />
      </span>
    </Dropdown>
  );
}
