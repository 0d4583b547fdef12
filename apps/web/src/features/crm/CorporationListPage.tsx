import { useNavigate } from 'react-router';
import { Form, Input, Select, Space, Tag, type TableColumnsType } from 'antd';
import {
  COMP_ROLE_LABELS,
  COMP_STATE_LABELS,
  COMPANY_EXPORT_FILE_NAME,
  COMPANY_PATHS,
  type CompanyRow,
} from '@portal/contract/company';
import { button } from '@portal/contract/menus';
import { AddButton } from '../../shared/list/AddButton';
import { ListExportButton } from '../../shared/list/ExportButton';
import { ListPage } from '../../shared/list/ListPage';
import { actionsColumn } from '../../shared/list/RowActions';
import { updateThen } from '../../shared/list/update-then';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import type { ScreenProps } from '../../shared/ui/screen';
import { useInfoDict } from '../../shared/company/api';
import { CORP_EDIT_PATH, CORP_VIEW_PATH, CRM_MENUS, crmKeys } from './api';

/** 企业列表 (crm-cor-cor): the customers, with 查看 / 编辑 into the tabbed detail pages. */
export default function CorporationListPage(_props: ScreenProps) {
  const navigate = useNavigate();
  const dict = useInfoDict().data;

  const columns: TableColumnsType<CompanyRow> = [
    codeColumn('企业编号', 'compCode', { width: 130 }),
    { title: '企业名称', dataIndex: 'compName', key: 'compName', width: 240, ellipsis: true },
    { title: '统一社会信用代码', dataIndex: 'usccCode', key: 'usccCode', width: 190 },
    {
      title: '客户角色',
      dataIndex: 'roles',
      key: 'roles',
      width: 200,
      render: (roles: CompanyRow['roles']) => roles.map((r) => <Tag key={r}>{COMP_ROLE_LABELS[r]}</Tag>),
    },
    { title: '法定代表人', dataIndex: 'legalPerson', key: 'legalPerson', width: 100 },
    { title: '所在地区', dataIndex: 'regionName', key: 'regionName', width: 200, ellipsis: true },
    {
      title: '状态',
      dataIndex: 'state',
      key: 'state',
      width: 80,
      render: (s: CompanyRow['state']) => (
        <Tag color={s === 'enabled' ? 'green' : 'default'}>{COMP_STATE_LABELS[s]}</Tag>
      ),
    },
    dateColumn('创建时间', 'createdAt', { withTime: true, width: 170 }),
    actionsColumn<CompanyRow>((row) => {
      const enable = row.state !== 'enabled';
      return [
        {
          label: '查看',
          onClick: () => navigate(`${CORP_VIEW_PATH}/corporation?compCode=${row.compCode}`),
        },
        {
          label: '编辑',
          code: button(CRM_MENUS.list, 'update'),
          onClick: () => navigate(`${CORP_EDIT_PATH}/corporation?compCode=${row.compCode}`),
        },
        {
          label: enable ? '启用' : '停用',
          code: button(CRM_MENUS.list, enable ? 'enable' : 'disable'),
          onClick: () =>
            void updateThen(enable ? COMPANY_PATHS.enable : COMPANY_PATHS.disable, undefined, {
              query: { compCode: row.compCode },
              confirm: `确定要${enable ? '启用' : '停用'}企业「${row.compName}」吗？`,
            }),
        },
        {
          label: '删除',
          code: button(CRM_MENUS.list, 'delete'),
          danger: true,
          onClick: () =>
            void updateThen(COMPANY_PATHS.del, undefined, {
              query: { compCode: row.compCode },
              confirm: `确定要删除企业「${row.compName}」吗？`,
            }),
        },
      ];
    }),
  ];

  return (
    <div data-testid="crm-corp-list">
      <ListPage<CompanyRow>
        source={COMPANY_PATHS.list}
        queryKey={crmKeys.list(COMPANY_PATHS.list)}
        rowKey="compCode"
        columns={columns}
        tableProps={{ scroll: { x: 1500 }, size: 'middle' }}
        filters={
          <>
            <Form.Item name="compName" label="企业名称">
              <Input placeholder="企业名称" allowClear style={{ width: 180 }} />
            </Form.Item>
            <Form.Item name="role" label="客户角色">
              <Select
                placeholder="全部"
                allowClear
                style={{ width: 130 }}
                options={dict?.roles.map((d) => ({ value: d.code, label: d.label }))}
              />
            </Form.Item>
            <Form.Item name="state" label="状态">
              <Select
                placeholder="全部"
                allowClear
                style={{ width: 100 }}
                options={dict?.states.map((d) => ({ value: d.code, label: d.label }))}
              />
            </Form.Item>
          </>
        }
        toolbar={
          <Space>
            <AddButton
              code={button(CRM_MENUS.list, 'add')}
              onClick={() => navigate(`${CORP_EDIT_PATH}/corporation`)}
            />
            <ListExportButton
              menu={CRM_MENUS.list}
              path={COMPANY_PATHS.listExport}
              fileName={COMPANY_EXPORT_FILE_NAME}
            />
          </Space>
        }
      />
    </div>
  );
}
