import { useNavigate } from 'react-router';
import { Form, Select } from 'antd';
import { CHANGE_TYPE_LABELS, CREDIT_PATHS, type ChangeView } from '@portal/contract/credit';
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { CREDIT_ROUTES, creditApi } from './api';
import { docStateColumn, useDocActionsColumn } from '../../shared/workflow/doc-columns';
import { CHANGE_DOC } from './doc-kinds';
import { CreditDocFilters } from './doc-filters';
import { AddButton } from '../../shared/list/AddButton';
import { labelOptions } from '../../shared/form/label-options';

const MENU = 'ft-credit-chg';
type Row = Omit<ChangeView, 'line'>;

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
        <CreditDocFilters>
          <Form.Item name="changeType" label="变更类型">
            <Select allowClear style={{ width: 120 }} options={labelOptions(CHANGE_TYPE_LABELS)} />
          </Form.Item>
        </CreditDocFilters>
      }
      toolbar={
        <AddButton code={`${MENU}:add`} onClick={() => void navigate(CREDIT_ROUTES.chgEditor)}>
          新增额度变更
        </AddButton>
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
