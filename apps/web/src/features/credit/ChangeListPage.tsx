import { useNavigate } from 'react-router';
import { Button, Form, Input, Select } from 'antd';
import { CHANGE_TYPE_LABELS, CREDIT_PATHS, type ChangeView } from '@portal/contract/credit';
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { Auth } from '../../shared/permission/Auth';
import { CREDIT_ROUTES, creditApi } from './api';
import { DOC_STATE_OPTIONS, docStateColumn, useDocActionsColumn } from '../../shared/workflow/doc-columns';
import { CHANGE_DOC } from './doc-kinds';

const MENU = 'ft-credit-chg';
type Row = Omit<ChangeView, 'line'>;
const options = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

/** 额度变更 list (credChangeList). */
export default function ChangeListPage() {
  const navigate = useNavigate();
  const actions = useDocActionsColumn<Row>(CHANGE_DOC, {
    code: (r) => r.bizCode,
    remove: (code) => creditApi.remove(CREDIT_PATHS.deleteCredChange, code, '额度变更'),
  });
  return (
    <ListPage<Row>
      source={CREDIT_PATHS.credChangeList}
      rowKey="bizCode"
      filters={
        <>
          <Form.Item name="custName" label="客户名称">
            <Input allowClear />
          </Form.Item>
          <Form.Item name="changeType" label="变更类型">
            <Select allowClear style={{ width: 120 }} options={options(CHANGE_TYPE_LABELS)} />
          </Form.Item>
          <Form.Item name="state" label="状态">
            <Select allowClear style={{ width: 120 }} options={DOC_STATE_OPTIONS} />
          </Form.Item>
        </>
      }
      toolbar={
        <Auth code={`${MENU}:add`}>
          <Button type="primary" onClick={() => navigate(CREDIT_ROUTES.chgEditor)}>
            新增额度变更
          </Button>
        </Auth>
      }
      columns={[
        codeColumn('变更编号', 'bizCode'),
        codeColumn('授信编号', 'credBizCode'),
        { title: '客户名称', dataIndex: 'custName', key: 'custName' },
        codeColumn('额度编号', 'lineCode'),
        {
          title: '变更类型',
          dataIndex: 'changeType',
          key: 'changeType',
          render: (v: keyof typeof CHANGE_TYPE_LABELS) => CHANGE_TYPE_LABELS[v],
        },
        moneyColumn('原额度', 'oldLimit'),
        moneyColumn('变更后额度', 'newLimit'),
        dateColumn('变更后到期日', 'newEndDate'),
        docStateColumn<Row>(),
        actions,
      ]}
    />
  );
}
