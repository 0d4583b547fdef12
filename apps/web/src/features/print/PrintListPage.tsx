import { useNavigate } from 'react-router';
import { Form, Input, Select, Tag, type TableColumnsType } from 'antd';
import { buttonCode } from '@portal/contract/menus';
import {
  BIZ_TYPE_LABELS,
  BIZ_TYPES,
  PRINT_MENU,
  PRINT_PATHS,
  TEMPLATE_STATE_LABELS,
  TEMPLATE_STATES,
  type TemplateRow,
} from '@portal/contract/print';
import { ApiError, type UpdateResult } from '../../shared/request/http';
import { actionsColumn } from '../../shared/list/RowActions';
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import type { ScreenProps } from '../../shared/ui/screen';
import { deleteTemplate, editorUrl, setTemplateState } from './api';
import { AddButton } from '../../shared/list/AddButton';

const typeOptions = BIZ_TYPES.map((t) => ({ value: t, label: BIZ_TYPE_LABELS[t] }));
const stateOptions = TEMPLATE_STATES.map((s) => ({ value: s, label: TEMPLATE_STATE_LABELS[s] }));

/** Print templates (打印模板) with search, enable/disable and delete. */
export default function PrintListPage(_props: ScreenProps) {
  const navigate = useNavigate();
  const buttons = useButtons(PRINT_MENU);

  const act = async (call: () => Promise<UpdateResult<null>>) => {
    try {
      // The list refreshes through the update (refreshListsOnUpdate).
      await call();
    } catch (err) {
      // The request layer has shown the server's message (已启用的模板…).
      if (!(err instanceof ApiError)) throw err;
    }
  };

  const columns: TableColumnsType<TemplateRow> = [
    codeColumn<TemplateRow>('模板编号', 'bizCode', { width: 130 }),
    { title: '模板名称', dataIndex: 'name', key: 'name', ellipsis: true },
    {
      title: '业务类型',
      dataIndex: 'bizType',
      key: 'bizType',
      width: 150,
      render: (_: unknown, r) => BIZ_TYPE_LABELS[r.bizType],
    },
    {
      title: '核心企业',
      dataIndex: 'coreCompName',
      key: 'coreCompName',
      ellipsis: true,
      render: (_: unknown, r) => r.coreCompName ?? '通用',
    },
    {
      title: '状态',
      dataIndex: 'state',
      key: 'state',
      width: 80,
      render: (_: unknown, r) => (
        <Tag color={r.state === 'enabled' ? 'green' : 'default'}>{TEMPLATE_STATE_LABELS[r.state]}</Tag>
      ),
    },
    { title: '版本', dataIndex: 'version', key: 'version', width: 70, align: 'right' },
    dateColumn<TemplateRow>('更新时间', 'updatedAt', { withTime: true, width: 170 }),
    actionsColumn<TemplateRow>((r) => [
      { label: buttons.has('save') ? '编辑' : '查看', onClick: () => void navigate(editorUrl(r.bizCode)) },
      r.state === 'enabled'
        ? {
            label: '停用',
            code: buttonCode(PRINT_MENU, 'disable'),
            onClick: () => void act(() => setTemplateState(r.bizCode, false)),
          }
        : {
            label: '启用',
            code: buttonCode(PRINT_MENU, 'enable'),
            onClick: () => void act(() => setTemplateState(r.bizCode, true)),
          },
      {
        label: '删除',
        code: buttonCode(PRINT_MENU, 'delete'),
        danger: true,
        hidden: r.state !== 'disabled',
        onClick: () => void act(() => deleteTemplate(r.bizCode)),
      },
    ]),
  ];

  return (
    <div data-testid="print-list">
      <ListPage<TemplateRow>
        source={PRINT_PATHS.list}
        rowKey="bizCode"
        columns={columns}
        filters={
          <>
            <Form.Item name="name" label="模板名称">
              <Input placeholder="请输入模板名称" allowClear style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name="bizType" label="业务类型">
              <Select placeholder="全部" allowClear options={typeOptions} style={{ width: 180 }} />
            </Form.Item>
            <Form.Item name="state" label="状态">
              <Select placeholder="全部" allowClear options={stateOptions} style={{ width: 120 }} />
            </Form.Item>
          </>
        }
        toolbar={
          <AddButton code={buttonCode(PRINT_MENU, 'add')} onClick={() => void navigate(editorUrl())} />
        }
        tableProps={{ scroll: { x: 1100 }, size: 'middle' }}
      />
    </div>
  );
}
