import { Button, Tag, type TableColumnsType } from 'antd';
import { buttonCode, type Action } from '@portal/contract/menus';
import {
  PERMIT_AREA_MENU,
  PERMIT_CHG_MENU,
  PERMIT_STATE_LABELS,
  PERMIT_USER_AREA_MENU,
  roleNames,
  userAreaMenu,
  type PermitArea,
  type PermitState,
  type PermitSubject,
  type RoleChangeRow,
} from '@portal/contract/permit';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { useButtons, type Buttons } from '../../shared/permission/use-buttons';

/** The pieces the admission screens share: button checks, role and state tags, history columns. */

const STATE_COLORS: Record<PermitState, string> = { saved: 'blue', open: 'green', disabled: 'default' };

/** The menu whose buttons allow an action on a record of this subject and area (none: 银企链 users). */
function menuOf(subject: PermitSubject, area: PermitArea): string | undefined {
  return subject === 'user' ? userAreaMenu(area) : PERMIT_AREA_MENU[area];
}

/** Every admission menu's buttons, so that a screen can ask for any area's. */
export function usePermitButtons() {
  const ec = useButtons(PERMIT_AREA_MENU.ec);
  const dw = useButtons(PERMIT_AREA_MENU.dw);
  const fc = useButtons(PERMIT_AREA_MENU.fc);
  const ecUser = useButtons(PERMIT_USER_AREA_MENU.ec ?? '');
  const dwUser = useButtons(PERMIT_USER_AREA_MENU.dw ?? '');
  const chg = useButtons(PERMIT_CHG_MENU);
  const byMenu: Record<string, Buttons> = {
    [PERMIT_AREA_MENU.ec]: ec,
    [PERMIT_AREA_MENU.dw]: dw,
    [PERMIT_AREA_MENU.fc]: fc,
    ...(PERMIT_USER_AREA_MENU.ec ? { [PERMIT_USER_AREA_MENU.ec]: ecUser } : {}),
    ...(PERMIT_USER_AREA_MENU.dw ? { [PERMIT_USER_AREA_MENU.dw]: dwUser } : {}),
  };
  return (subject: PermitSubject, area: PermitArea, action: Action): boolean => {
    const menu = menuOf(subject, area);
    if (menu && byMenu[menu]?.has(buttonCode(menu, action))) return true;
    return (
      subject === 'cust' &&
      area === 'ec' &&
      action === 'setRole' &&
      chg.has(buttonCode(PERMIT_CHG_MENU, 'setRole'))
    );
  };
}

export function RoleTags({
  subject,
  area,
  roles,
}: {
  subject: PermitSubject;
  area: PermitArea;
  roles: readonly string[];
}) {
  return (
    <>
      {roleNames(subject, area, roles)
        .split('、')
        .filter(Boolean)
        .map((r) => (
          <Tag key={r}>{r}</Tag>
        ))}
    </>
  );
}

export function StateTag({ state }: { state: PermitState }) {
  return <Tag color={STATE_COLORS[state]}>{PERMIT_STATE_LABELS[state]}</Tag>;
}

/**
 * The role change columns. Each row's roles are named from its own subject and area (a list may
 * hold several: a cust row's `core` is 核心企业 in dw and fc, a user row's `operator` is 经办人).
 */
export const historyColumns = (onView?: (code: string) => void): TableColumnsType<RoleChangeRow> => [
  codeColumn('变更编号', 'bizCode', { width: 130 }),
  {
    title: '类型',
    dataIndex: 'kind',
    key: 'kind',
    width: 80,
    render: (k: RoleChangeRow['kind']) => (k === 'open' ? '开通' : '变更'),
  },
  {
    title: '变更前角色',
    dataIndex: 'rolesBefore',
    key: 'rolesBefore',
    render: (r: string[], row: RoleChangeRow) => roleNames(row.subject, row.area, r) || '—',
  },
  {
    title: '变更后角色',
    dataIndex: 'rolesAfter',
    key: 'rolesAfter',
    render: (r: string[], row: RoleChangeRow) => roleNames(row.subject, row.area, r),
  },
  { title: '变更原因', dataIndex: 'reason', key: 'reason', ellipsis: true },
  { title: '操作人', dataIndex: 'createdByName', key: 'createdByName', width: 100 },
  dateColumn('时间', 'createdAt', { withTime: true, width: 170 }),
  ...(onView
    ? [
        {
          title: '操作',
          key: 'actions',
          width: 80,
          render: (_: unknown, r: RoleChangeRow) => (
            <Button type="link" size="small" onClick={() => onView(r.bizCode)}>
              查看
            </Button>
          ),
        },
      ]
    : []),
];
