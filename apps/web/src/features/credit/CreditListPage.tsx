import { useNavigate } from 'react-router';
import { Form, Select, Space, Tag } from 'antd';
import {
  CREDIT_EXPORT_FILE_NAME,
  CREDIT_PATHS,
  CYCLE_LABELS,
  creditListSchema,
  type CreditListRow,
} from '@portal/contract/credit';
import { ListPage } from '../../shared/list/ListPage';
import { KEY } from '../../shared/list/fit-columns';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { ListExportButton } from '../../shared/list/ExportButton';
import { DateRangeField, MoneyRangeField, rangeFilters } from '../../shared/list/range-fields';
import { CREDIT_ROUTES, creditApi } from './api';
import { useDocActionsColumn } from '../../shared/workflow/doc-columns';
import { DocStateTag } from '../../shared/workflow/DocStateTag';
import { UtilisationChart } from './components';
import { CREDIT_DOC } from './doc-kinds';
import { CreditDocFilters } from './doc-filters';
import { AddButton } from '../../shared/list/AddButton';
import { labelOptions } from '../../shared/form/label-options';

const MENU = 'ft-credit-info';
const toFilters = rangeFilters({
  endDate: ['endDateStart', 'endDateEnd'],
  limitAmount: ['limitAmountStart', 'limitAmountEnd'],
});

/** 授信 list with the utilisation chart per customer. */
export default function CreditListPage() {
  const navigate = useNavigate();
  const actions = useDocActionsColumn<CreditListRow>(CREDIT_DOC, {
    code: (r) => r.bizCode,
    remove: (code) => creditApi.remove(CREDIT_PATHS.deleteCreditPlatform, code, '授信'),
  });
  return (
    <div data-testid="credit-list">
      <UtilisationChart />
      <div style={{ height: 16 }} />
      <ListPage<CreditListRow>
        source={CREDIT_PATHS.creditList}
        sortable={creditListSchema.sortable}
        rowKey="bizCode"
        toFilters={toFilters}
        filters={
          <CreditDocFilters>
            <Form.Item name="cycle" label="额度类型">
              <Select allowClear style={{ width: 120 }} options={labelOptions(CYCLE_LABELS)} />
            </Form.Item>
            <DateRangeField name="endDate" label="到期日" />
            <MoneyRangeField name="limitAmount" label="授信额度" />
          </CreditDocFilters>
        }
        toolbar={
          <Space>
            <AddButton code={`${MENU}:add`} onClick={() => void navigate(CREDIT_ROUTES.editor)}>
              新增授信
            </AddButton>
            <ListExportButton
              menu={MENU}
              path={CREDIT_PATHS.creditListExport}
              fileName={CREDIT_EXPORT_FILE_NAME}
            />
          </Space>
        }
        columns={[
          codeColumn('授信编号', 'bizCode'),
          { title: '客户名称', dataIndex: 'custName', key: 'custName', priority: KEY },
          moneyColumn('授信额度', 'limitAmount', { priority: KEY }),
          moneyColumn('已占用', 'occupiedAmount'),
          moneyColumn('可用额度', 'availableAmount', { priority: KEY }),
          {
            title: '额度类型',
            dataIndex: 'cycle',
            key: 'cycle',
            render: (v: keyof typeof CYCLE_LABELS) => CYCLE_LABELS[v],
          },
          dateColumn('起始日', 'startDate'),
          dateColumn('到期日', 'endDate'),
          {
            title: '状态',
            dataIndex: 'state',
            key: 'state',
            priority: KEY,
            render: (_: unknown, r: CreditListRow) => (
              <Space size={4}>
                <DocStateTag state={r.state} />
                {r.frozen ? <Tag color="warning">已冻结</Tag> : null}
              </Space>
            ),
          },
          actions,
        ]}
      />
    </div>
  );
}
