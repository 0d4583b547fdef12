import { useNavigate } from 'react-router';
import { Form, Input, Select, Tag, type TableColumnsType } from 'antd';
import {
  DAY_COUNT_LABELS,
  FEE_COLLECTION_LABELS,
  INTEREST_COLLECTION_LABELS,
  METHOD_LABELS,
  METHODS,
} from '@portal/contract/plan/rule';
import { RULE_STATE_LABELS, RULE_STATES, RULER_PATHS, type RuleView } from '@portal/contract/ruler';
import { buttonCode } from '@portal/contract/menus';
import { ApiError } from '../../shared/request/http';
import { actionsColumn } from '../../shared/list/RowActions';
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import type { ScreenProps } from '../../shared/ui/screen';
import { deleteRule, editorUrl, RULER_MENU } from './api';
import { formatRatePercent } from './rule-form';
import { AddButton } from '../../shared/list/AddButton';

const methodOptions = METHODS.map((m) => ({ value: m, label: METHOD_LABELS[m] }));
const stateOptions = RULE_STATES.map((s) => ({ value: s, label: RULE_STATE_LABELS[s] }));

/** The interest-rule (计息规则) list with search, add, edit and delete. */
export default function RulerListPage(_props: ScreenProps) {
  const navigate = useNavigate();
  const buttons = useButtons(RULER_MENU);
  const canSave = buttons.has('save');

  const remove = async (row: RuleView) => {
    try {
      // The list refreshes through the update (refreshListsOnUpdate).
      await deleteRule(row.bizCode);
    } catch (err) {
      // The request layer has shown the server's message (e.g. 计息规则正在使用中…).
      if (!(err instanceof ApiError)) throw err;
    }
  };

  const columns: TableColumnsType<RuleView> = [
    codeColumn<RuleView>('规则编号', 'bizCode', { width: 130 }),
    { title: '规则名称', dataIndex: 'name', key: 'name', ellipsis: true },
    {
      title: '年利率',
      dataIndex: 'annualRate',
      key: 'annualRate',
      align: 'right',
      width: 100,
      render: (_: unknown, r) => formatRatePercent(r.annualRate),
    },
    {
      title: '计息基准',
      dataIndex: 'dayCount',
      key: 'dayCount',
      width: 140,
      render: (_: unknown, r) => DAY_COUNT_LABELS[r.dayCount],
    },
    {
      title: '还款方式',
      dataIndex: 'method',
      key: 'method',
      width: 150,
      render: (_: unknown, r) => METHOD_LABELS[r.method],
    },
    {
      title: '利息收取',
      dataIndex: 'interestCollection',
      key: 'interestCollection',
      width: 90,
      render: (_: unknown, r) => INTEREST_COLLECTION_LABELS[r.interestCollection],
    },
    {
      title: '费率',
      dataIndex: 'feeRate',
      key: 'feeRate',
      align: 'right',
      width: 110,
      render: (_: unknown, r) =>
        `${formatRatePercent(r.feeRate)}（${FEE_COLLECTION_LABELS[r.feeCollection]}）`,
    },
    {
      title: '状态',
      dataIndex: 'state',
      key: 'state',
      width: 80,
      render: (_: unknown, r) => (
        <Tag color={r.state === 'enabled' ? 'green' : 'default'}>{RULE_STATE_LABELS[r.state]}</Tag>
      ),
    },
    dateColumn<RuleView>('更新时间', 'updatedAt', { withTime: true, width: 170 }),
    actionsColumn<RuleView>((r) => [
      { label: canSave ? '编辑' : '查看', onClick: () => void navigate(editorUrl(r.bizCode)) },
      { label: '删除', code: buttonCode(RULER_MENU, 'delete'), danger: true, onClick: () => void remove(r) },
    ]),
  ];

  return (
    <div className="ruler-list" data-testid="ruler-list">
      <ListPage<RuleView>
        source={RULER_PATHS.list}
        rowKey="bizCode"
        columns={columns}
        filters={
          <>
            <Form.Item name="name" label="规则名称">
              <Input placeholder="请输入规则名称" allowClear style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name="method" label="还款方式">
              <Select placeholder="全部" allowClear options={methodOptions} style={{ width: 180 }} />
            </Form.Item>
            <Form.Item name="state" label="状态">
              <Select placeholder="全部" allowClear options={stateOptions} style={{ width: 120 }} />
            </Form.Item>
          </>
        }
        toolbar={
          <AddButton code={buttonCode(RULER_MENU, 'add')} onClick={() => void navigate(editorUrl())} />
        }
        tableProps={{ scroll: { x: 1100 }, size: 'middle' }}
      />
    </div>
  );
}
