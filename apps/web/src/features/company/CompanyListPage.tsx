import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { DownloadOutlined } from '@ant-design/icons';
import {
  Button,
  Cascader,
  DatePicker,
  Form,
  Input,
  message,
  Select,
  Space,
  Tag,
  type TableColumnsType,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { ADMISSION_MENU } from '@portal/contract/admission';
import {
  ADMISSION_LABELS,
  ADMISSIONS,
  COMP_ROLE_LABELS,
  COMP_STATE_LABELS,
  COMP_TYPE_LABELS,
  COMPANY_PATHS,
  type CompanyRow,
} from '@portal/contract/company';
import { button } from '@portal/contract/menus';
import { actionsColumn } from '../../shared/list/RowActions';
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { listConditionKey, readListCondition } from '../../shared/list/list-condition';
import { Auth } from '../../shared/permission/Auth';
import type { ScreenProps } from '../../shared/ui/screen';
import { useInfoDict } from '../../shared/company/api';
import { useLinkage } from '../../shared/geo/linkage';
import { deleteCompany, exportCompanies, setCompanyState } from './api';
import { AddButton } from '../../shared/list/AddButton';

const MENU = 'ft-company';
export const COMPANY_EDITOR_PATH = '/factoring/config/company-editor';
/** The 客户准入 editor (docs/admission.md), opened for a pending customer. */
const ADMISSION_EDITOR_PATH = '/factoring/config/admission-editor';

function toFilters(values: Record<string, unknown>): Record<string, unknown> {
  const { region, created, ...rest } = values as { region?: string[]; created?: [Dayjs, Dayjs] | null };
  return {
    ...rest,
    regionCode: region?.length ? region[region.length - 1] : undefined,
    createdStart: created?.[0]?.format('YYYY-MM-DD'),
    createdEnd: created?.[1]?.format('YYYY-MM-DD'),
  };
}

/** 企业客户: search, paging, export, enable/disable, delete with confirmation. */
export default function CompanyListPage(_props: ScreenProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const dict = useInfoDict().data;
  const linkage = useLinkage().data ?? [];
  const [exporting, setExporting] = useState(false);

  const doExport = async () => {
    const saved = readListCondition(listConditionKey(location.pathname));
    setExporting(true);
    const hide = message.loading('正在导出企业客户明细表，请稍候……', 0);
    try {
      await exportCompanies(saved?.filters ?? {});
      void message.success('导出完成');
    } catch {
      // the request layer has warned
    } finally {
      hide();
      setExporting(false);
    }
  };

  const columns: TableColumnsType<CompanyRow> = [
    codeColumn('企业编号', 'compCode', { width: 130 }),
    { title: '企业名称', dataIndex: 'compName', key: 'compName', width: 240, ellipsis: true },
    { title: '统一社会信用代码', dataIndex: 'usccCode', key: 'usccCode', width: 190 },
    {
      title: '企业类型',
      dataIndex: 'compType',
      key: 'compType',
      width: 100,
      render: (v: CompanyRow['compType']) => COMP_TYPE_LABELS[v],
    },
    {
      title: '客户角色',
      dataIndex: 'roles',
      key: 'roles',
      width: 180,
      render: (roles: CompanyRow['roles']) => roles.map((r) => <Tag key={r}>{COMP_ROLE_LABELS[r]}</Tag>),
    },
    { title: '法定代表人', dataIndex: 'legalPerson', key: 'legalPerson', width: 100 },
    moneyColumn('注册资本（元）', 'regCapital', { width: 180 }),
    { title: '所在地区', dataIndex: 'regionName', key: 'regionName', width: 220, ellipsis: true },
    {
      title: '状态',
      dataIndex: 'state',
      key: 'state',
      width: 80,
      render: (s: CompanyRow['state']) => (
        <Tag color={s === 'enabled' ? 'green' : 'default'}>{COMP_STATE_LABELS[s]}</Tag>
      ),
    },
    {
      title: '准入状态',
      dataIndex: 'admission',
      key: 'admission',
      width: 90,
      render: (a: CompanyRow['admission']) => (
        <Tag color={a === 'admitted' ? 'blue' : 'orange'}>{ADMISSION_LABELS[a]}</Tag>
      ),
    },
    dateColumn('创建时间', 'createdAt', { withTime: true, width: 170 }),
    actionsColumn<CompanyRow>((row) => [
      ...(row.admission === 'pending'
        ? [
            {
              label: '办理准入',
              code: button(ADMISSION_MENU, 'add'),
              onClick: () => void navigate(`${ADMISSION_EDITOR_PATH}?compCode=${row.compCode}`),
            },
          ]
        : []),
      {
        label: '编辑',
        code: button(MENU, 'update'),
        onClick: () => void navigate(`${COMPANY_EDITOR_PATH}?compCode=${row.compCode}`),
      },
      {
        label: row.state === 'enabled' ? '停用' : '启用',
        code: button(MENU, row.state === 'enabled' ? 'disable' : 'enable'),
        onClick: () =>
          void setCompanyState(row.compCode, row.compName, row.state !== 'enabled').catch(() => null),
      },
      {
        label: '删除',
        code: button(MENU, 'delete'),
        danger: true,
        onClick: () => void deleteCompany(row.compCode, row.compName).catch(() => null),
      },
    ]),
  ];

  return (
    <ListPage<CompanyRow>
      source={COMPANY_PATHS.list}
      rowKey="compCode"
      columns={columns}
      toFilters={toFilters}
      tableProps={{ scroll: { x: 2000 }, size: 'middle' }}
      filters={
        <>
          <Form.Item name="compName" label="企业名称">
            <Input placeholder="企业名称" allowClear style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="usccCode" label="信用代码">
            <Input placeholder="统一社会信用代码" allowClear style={{ width: 200 }} maxLength={18} />
          </Form.Item>
          <Form.Item name="compType" label="企业类型">
            <Select
              placeholder="全部"
              allowClear
              style={{ width: 130 }}
              options={dict?.compTypes.map((d) => ({ value: d.code, label: d.label }))}
            />
          </Form.Item>
          <Form.Item name="role" label="客户角色">
            <Select
              placeholder="全部"
              allowClear
              style={{ width: 130 }}
              options={dict?.roles.map((d) => ({ value: d.code, label: d.label }))}
            />
          </Form.Item>
          <Form.Item name="region" label="所在地区">
            <Cascader
              placeholder="省 / 市 / 区"
              changeOnSelect
              allowClear
              style={{ width: 220 }}
              options={linkage}
              showSearch
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
          <Form.Item name="admission" label="准入状态">
            <Select
              placeholder="全部"
              allowClear
              style={{ width: 100 }}
              options={ADMISSIONS.map((a) => ({ value: a, label: ADMISSION_LABELS[a] }))}
            />
          </Form.Item>
          <Form.Item name="created" label="创建日期">
            <DatePicker.RangePicker />
          </Form.Item>
        </>
      }
      toolbar={
        <Space>
          <AddButton code={button(MENU, 'add')} onClick={() => void navigate(COMPANY_EDITOR_PATH)} />
          <Auth code={button(MENU, 'export')}>
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()}>
              {exporting ? '正在导出' : '导出'}
            </Button>
          </Auth>
        </Space>
      }
    />
  );
}
