import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Select, Space } from 'antd';
import {
  PERMIT_AREA_LABELS,
  PERMIT_PATHS,
  PERMIT_SUBJECT_LABELS,
  type PermitArea,
  type PermitRow,
  type PermitState,
  type PermitSubject,
} from '@portal/contract/permit';
import { KEY, type ListColumns } from '../../shared/list/fit-columns';
import { ListPage } from '../../shared/list/ListPage';
import { actionsColumn } from '../../shared/list/RowActions';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import type { ScreenProps } from '../../shared/ui/screen';
import { areaListKey, areaOfPath, PERMIT_ROUTES, recordLink, usePermitDict, usePermitMutations } from './api';
import { RoleTags, StateTag, usePermitButtons } from './parts';
import { SaveDialog, type EditTarget } from './SaveDialog';

/** The list of one area's admissions of customers or users, with 新增/编辑/开通/停用/查看. */
function PermitList({ subject, area }: { subject: PermitSubject; area: PermitArea }) {
  const navigate = useNavigate();
  const allowed = usePermitButtons();
  const dict = usePermitDict(subject).data;
  const [editing, setEditing] = useState<EditTarget | null>(null);
  const { open, disable } = usePermitMutations();
  const nameOf = (row: PermitRow) => (subject === 'cust' ? row.compName : (row.userName ?? ''));

  const columns: ListColumns<PermitRow> = [
    codeColumn('准入编号', 'bizCode', { width: 130 }),
    ...(subject === 'user'
      ? [
          { title: '用户姓名', dataIndex: 'userName', key: 'userName', width: 110, priority: KEY },
          { title: '手机号', dataIndex: 'mobile', key: 'mobile', width: 130 },
        ]
      : []),
    { title: '企业名称', dataIndex: 'compName', key: 'compName', width: 200, ellipsis: true, priority: KEY },
    ...(subject === 'cust'
      ? [{ title: '统一社会信用代码', dataIndex: 'usccCode', key: 'usccCode', width: 190, priority: 2 }]
      : []),
    {
      title: '角色',
      dataIndex: 'roles',
      key: 'roles',
      width: 200,
      priority: KEY,
      render: (roles: string[], row) => <RoleTags subject={subject} area={row.area} roles={roles} />,
    },
    {
      title: '状态',
      dataIndex: 'state',
      key: 'state',
      width: 90,
      priority: KEY,
      render: (s: PermitState) => <StateTag state={s} />,
    },
    dateColumn('开通时间', 'openedAt', { withTime: true, width: 170 }),
    dateColumn('创建时间', 'createdAt', { withTime: true, width: 170, priority: 2 }),
    actionsColumn<PermitRow>((row) => [
      { label: '查看', onClick: () => void navigate(recordLink(row)) },
      {
        label: '编辑',
        hidden: row.state !== 'saved' || !allowed(subject, area, 'save'),
        onClick: () => setEditing({ row }),
      },
      {
        label: row.state === 'disabled' ? '重新开通' : '开通',
        hidden: row.state === 'open' || !allowed(subject, area, 'open'),
        onClick: () => void open.mutateAsync({ subject, target: row, name: nameOf(row) }).catch(() => null),
      },
      {
        label: '停用',
        danger: true,
        hidden: row.state !== 'open' || !allowed(subject, area, 'disable'),
        onClick: () =>
          void disable.mutateAsync({ subject, target: row, name: nameOf(row) }).catch(() => null),
      },
    ]),
  ];

  return (
    <div data-testid={`permit-list-${subject}-${area}`}>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        message={`${PERMIT_AREA_LABELS[area]} · ${PERMIT_SUBJECT_LABELS[subject]}准入`}
        description={
          subject === 'cust'
            ? '保存后开通即生效；开通后的角色通过“查看”中的设置角色变更，每次变更都有记录。'
            : '企业用户须已审核通过，且其所属企业已在本区域开通准入。'
        }
      />
      <ListPage<PermitRow>
        source={subject === 'cust' ? PERMIT_PATHS.custList : PERMIT_PATHS.userList}
        queryKey={areaListKey(subject, area)}
        rowKey="bizCode"
        columns={columns}
        initialFilters={{ area }}
        toFilters={(v) => ({ ...v, area })}
        tableProps={{ scroll: { x: subject === 'cust' ? 1450 : 1520 }, size: 'middle' }}
        filters={
          <>
            <Form.Item name="compName" label="企业名称">
              <Input placeholder="企业名称" allowClear style={{ width: 180 }} />
            </Form.Item>
            {subject === 'user' ? (
              <Form.Item name="userName" label="用户姓名">
                <Input placeholder="用户姓名" allowClear style={{ width: 130 }} />
              </Form.Item>
            ) : (
              <Form.Item name="usccCode" label="信用代码">
                <Input placeholder="统一社会信用代码" allowClear style={{ width: 200 }} maxLength={18} />
              </Form.Item>
            )}
            <Form.Item name="state" label="状态">
              <Select
                placeholder="全部"
                allowClear
                style={{ width: 110 }}
                options={dict?.states.map((d) => ({ value: d.code, label: d.label }))}
              />
            </Form.Item>
          </>
        }
        toolbar={
          <Space>
            {allowed(subject, area, 'add') ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
                新增
              </Button>
            ) : null}
            {subject === 'cust' && area !== 'fc' ? (
              <Button
                icon={<TeamOutlined />}
                onClick={() => navigate(area === 'dw' ? PERMIT_ROUTES.dwPersonal : PERMIT_ROUTES.ecPersonal)}
              >
                企业用户准入
              </Button>
            ) : null}
          </Space>
        }
      />
      <SaveDialog subject={subject} area={area} target={editing} onClose={() => setEditing(null)} />
    </div>
  );
}

/** /ec/permit/comp, /dw/permit/comp, /fc/fc: customer admissions of the screen's area. */
export function CustPermitListPage({ meta }: ScreenProps) {
  return <PermitList subject="cust" area={areaOfPath(meta.path)} />;
}

/** /ec/permit/personal (and the hidden /dw/permit/personal): enterprise-user admissions. */
export function UserPermitListPage({ meta }: ScreenProps) {
  return <PermitList subject="user" area={areaOfPath(meta.path)} />;
}
