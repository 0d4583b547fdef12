import { useState } from 'react';
import {
  Alert,
  Card,
  DatePicker,
  Form,
  Input,
  Select,
  Space,
  Switch,
  Tabs,
  Tag,
  type TableColumnsType,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import {
  CRM_PATHS,
  REL_STATE_LABELS,
  REL_STATES,
  REL_TYPE_LABELS,
  REL_TYPES,
  type RelationRow,
  type RelType,
  relationSaveSchema,
} from '@portal/contract/crm';
import { button } from '@portal/contract/menus';
import { fieldRules } from '../../shared/form/zod-rule';
import { AddButton } from '../../shared/list/AddButton';
import { EditModal } from '../../shared/list/EditModal';
import { ListPage } from '../../shared/list/ListPage';
import { actionsColumn } from '../../shared/list/RowActions';
import { updateThen } from '../../shared/list/update-then';
import { useRowEditor } from '../../shared/list/use-row-editor';
import { codeColumn } from '../../shared/list/columns';
import type { ScreenProps } from '../../shared/ui/screen';
import { useCompanyDict } from '../../shared/company/api';
import { CRM_MENUS, useRefreshRelationGraph, useRelationGraph } from './api';
import { RelationGraphChart } from './RelationGraphChart';
import { validValues } from '../../shared/ui/valid-values';

interface RelValues {
  relType: RelType;
  coreCompCode: string;
  relCompCode: string;
  period: [Dayjs, Dayjs];
  remark?: string;
}

/**
 * relationSaveSchema's field rules. 有效期 is one range picker here (startDate/endDate in the
 * schema), and 关联企业 ≠ 核心企业 is checked between two fields as the schema's superRefine does.
 */
const rules = fieldRules(relationSaveSchema);
const STATE_COLORS = { valid: 'green', future: 'blue', expired: 'default' } as const;

/** 企业关系维护: relations between enterprises with validity dates, as a list and as a graph. */
export default function RelationPage(_props: ScreenProps) {
  const customers = useCompanyDict().data ?? [];
  const options = customers.map((c) => ({ value: c.code, label: c.label }));
  const [form] = Form.useForm<RelValues>();
  const {
    editing,
    row: editRow,
    open,
    close,
  } = useRowEditor(form, (r: RelationRow) => ({
    relType: r.relType,
    coreCompCode: r.coreCompCode,
    relCompCode: r.relCompCode,
    period: [dayjs(r.startDate), dayjs(r.endDate)],
    remark: r.remark ?? undefined,
  }));
  const [graphComp, setGraphComp] = useState<string | undefined>();
  const [validOnly, setValidOnly] = useState(false);
  const graph = useRelationGraph(graphComp, validOnly);

  const refreshGraph = useRefreshRelationGraph();

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    await updateThen(
      CRM_PATHS.relationSave,
      {
        relType: v.relType,
        coreCompCode: v.coreCompCode,
        relCompCode: v.relCompCode,
        startDate: v.period[0].format('YYYY-MM-DD'),
        endDate: v.period[1].format('YYYY-MM-DD'),
        remark: v.remark,
        ...(editRow ? { bizCode: editRow.bizCode, version: editRow.version } : {}),
      },
      {},
      () => {
        close();
        refreshGraph();
      },
    );
  };

  const columns: TableColumnsType<RelationRow> = [
    codeColumn('关系编号', 'bizCode', { width: 130 }),
    {
      title: '关系类型',
      dataIndex: 'relType',
      key: 'relType',
      width: 150,
      render: (t: RelType) => REL_TYPE_LABELS[t],
    },
    { title: '核心企业', dataIndex: 'coreCompName', key: 'coreCompName', width: 220, ellipsis: true },
    { title: '关联企业', dataIndex: 'relCompName', key: 'relCompName', width: 220, ellipsis: true },
    { title: '生效日期', dataIndex: 'startDate', key: 'startDate', width: 110 },
    { title: '失效日期', dataIndex: 'endDate', key: 'endDate', width: 110 },
    {
      title: '状态',
      dataIndex: 'relState',
      key: 'relState',
      width: 90,
      render: (s: RelationRow['relState']) => <Tag color={STATE_COLORS[s]}>{REL_STATE_LABELS[s]}</Tag>,
    },
    { title: '备注', dataIndex: 'remark', key: 'remark', ellipsis: true },
    actionsColumn<RelationRow>((row) => [
      { label: '修改', code: button(CRM_MENUS.rel, 'update'), onClick: () => open(row) },
      {
        label: '删除',
        code: button(CRM_MENUS.rel, 'delete'),
        danger: true,
        onClick: () =>
          void updateThen(
            CRM_PATHS.relationDel,
            { version: row.version },
            {
              query: { bizCode: row.bizCode },
              confirm: `确定要删除「${row.coreCompName}」与「${row.relCompName}」的关系吗？`,
            },
            refreshGraph,
          ),
      },
    ]),
  ];

  return (
    <Card title="企业关系维护" data-testid="crm-relation">
      <Tabs
        items={[
          {
            key: 'list',
            label: '关系列表',
            children: (
              <ListPage<RelationRow>
                source={CRM_PATHS.relationList}
                rowKey="bizCode"
                columns={columns}
                tableProps={{ size: 'middle', scroll: { x: 1300 } }}
                filters={
                  <>
                    <Form.Item name="compCode" label="企业">
                      <Select
                        allowClear
                        showSearch
                        optionFilterProp="label"
                        style={{ width: 220 }}
                        options={options}
                      />
                    </Form.Item>
                    <Form.Item name="relType" label="关系类型">
                      <Select
                        allowClear
                        style={{ width: 160 }}
                        options={REL_TYPES.map((t) => ({ value: t, label: REL_TYPE_LABELS[t] }))}
                      />
                    </Form.Item>
                    <Form.Item name="relState" label="状态">
                      <Select
                        allowClear
                        style={{ width: 110 }}
                        options={REL_STATES.map((s) => ({ value: s, label: REL_STATE_LABELS[s] }))}
                      />
                    </Form.Item>
                  </>
                }
                toolbar={
                  <AddButton code={button(CRM_MENUS.rel, 'add')} onClick={() => open('new')}>
                    新增关系
                  </AddButton>
                }
              />
            ),
          },
          {
            key: 'graph',
            label: '关系图',
            children: (
              <>
                <Space wrap style={{ marginBottom: 12 }}>
                  <Select
                    aria-label="图中企业"
                    allowClear
                    showSearch
                    optionFilterProp="label"
                    placeholder="全部企业"
                    style={{ width: 260 }}
                    value={graphComp}
                    onChange={(v?: string) => setGraphComp(v)}
                    options={options}
                  />
                  <span>仅有效关系</span>
                  <Switch checked={validOnly} onChange={setValidOnly} />
                  <span style={{ color: '#999' }}>
                    实线：有效；虚线：未生效或已失效；箭头由核心企业指向关联企业
                  </span>
                </Space>
                {graph.data?.truncated ? (
                  <Alert type="info" showIcon message="关系较多，图中只显示最近的500条，请选择企业缩小范围" />
                ) : null}
                {graph.data ? <RelationGraphChart graph={graph.data} /> : null}
              </>
            ),
          },
        ]}
      />
      <EditModal
        title={editing === 'new' ? '新增企业关系' : '修改企业关系'}
        open={editing !== null}
        onSave={save}
        onCancel={close}
      >
        <Form<RelValues>
          form={form}
          layout="vertical"
          name="crmRelation"
          initialValues={{ relType: 'supplier' }}
        >
          <Form.Item name="relType" label="关系类型" rules={rules.relType}>
            <Select options={REL_TYPES.map((t) => ({ value: t, label: REL_TYPE_LABELS[t] }))} />
          </Form.Item>
          <Form.Item name="coreCompCode" label="核心企业" rules={rules.coreCompCode}>
            <Select showSearch optionFilterProp="label" options={options} />
          </Form.Item>
          <Form.Item
            name="relCompCode"
            label="关联企业"
            dependencies={['coreCompCode']}
            rules={[
              ...rules.relCompCode,
              ({ getFieldValue }) => ({
                validator: async (_, v?: string) => {
                  if (v && v === getFieldValue('coreCompCode')) throw new Error('关联企业不能与核心企业相同');
                },
              }),
            ]}
          >
            <Select showSearch optionFilterProp="label" options={options} />
          </Form.Item>
          <Form.Item name="period" label="有效期" rules={[{ required: true, message: '生效日期不能为空' }]}>
            <DatePicker.RangePicker style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="remark" label="备注" rules={rules.remark}>
            <Input maxLength={500} />
          </Form.Item>
        </Form>
      </EditModal>
    </Card>
  );
}
