import { useNavigate } from 'react-router';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import {
  PERMIT_AREA_LABELS,
  PERMIT_CHG_MENU,
  PERMIT_PATHS,
  PERMIT_SUBJECT_LABELS,
  type PermitArea,
  type PermitSubject,
  type RoleChangeRow,
} from '@portal/contract/permit';
import { KEY, type ListColumns } from '../../shared/list/fit-columns';
import { ListPage } from '../../shared/list/ListPage';
import { actionsColumn } from '../../shared/list/RowActions';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import type { ScreenProps } from '../../shared/ui/screen';
import { PERMIT_ROUTES, recordLink } from './api';
import { historyColumns } from './parts';

/** The screen's records: ec customer admissions (also on the first load, which reads initialFilters). */
const CHG_SCOPE = { area: 'ec', subject: 'cust' } as const;

/** /ec/permit/comp-role-chg: the role changes of ec customer admissions (企业角色变更). */
export function RoleChgListPage(_props: ScreenProps) {
  const navigate = useNavigate();
  const chg = useButtons(PERMIT_CHG_MENU);
  const columns: ListColumns<RoleChangeRow> = [
    codeColumn('变更编号', 'bizCode', { width: 130 }),
    codeColumn('准入编号', 'permitCode', { width: 130, priority: 2 }),
    { title: '企业名称', dataIndex: 'compName', key: 'compName', width: 200, ellipsis: true, priority: KEY },
    {
      title: '准入区域',
      dataIndex: 'area',
      key: 'area',
      width: 90,
      render: (a: PermitArea) => PERMIT_AREA_LABELS[a],
    },
    {
      title: '准入对象',
      dataIndex: 'subject',
      key: 'subject',
      width: 90,
      render: (v: PermitSubject) => PERMIT_SUBJECT_LABELS[v],
    },
    ...historyColumns().slice(1, -2),
    { title: '操作人', dataIndex: 'createdByName', key: 'createdByName', width: 100 },
    dateColumn('时间', 'createdAt', { withTime: true, width: 170 }),
    actionsColumn<RoleChangeRow>((r) => [
      { label: '查看', onClick: () => void navigate(`${PERMIT_ROUTES.roleChgView}?bizCode=${r.bizCode}`) },
      {
        label: '准入记录',
        onClick: () => void navigate(recordLink({ bizCode: r.permitCode, subject: 'cust', area: 'ec' })),
      },
    ]),
  ];
  return (
    <div data-testid="permit-role-chg-list">
      <ListPage<RoleChangeRow>
        source={PERMIT_PATHS.roleChgList}
        rowKey="bizCode"
        columns={columns}
        initialFilters={CHG_SCOPE}
        toFilters={(v) => ({ ...v, ...CHG_SCOPE })}
        tableProps={{ scroll: { x: 1300 }, size: 'middle' }}
        filters={
          <Form.Item name="compName" label="企业名称">
            <Input placeholder="企业名称" allowClear style={{ width: 200 }} />
          </Form.Item>
        }
        toolbar={
          chg.has('setRole') ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(PERMIT_ROUTES.record)}>
              新增
            </Button>
          ) : null
        }
      />
    </div>
  );
}
