import { useNavigate } from 'react-router';
import { CREDIT_PATHS, type DistView } from '@portal/contract/credit';
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { CREDIT_ROUTES, creditApi } from './api';
import { docStateColumn, useDocActionsColumn } from '../../shared/workflow/doc-columns';
import { DISTRIBUTION_DOC } from './doc-kinds';
import { CreditDocFilters } from './doc-filters';
import { AddButton } from '../../shared/list/AddButton';

const MENU = 'ft-credit-dist';
type Row = Omit<DistView, 'items' | 'parent'>;

/** 额度分配 list (credDistributionList). */
export default function DistributionListPage() {
  const navigate = useNavigate();
  const actions = useDocActionsColumn<Row>(DISTRIBUTION_DOC, {
    code: (r) => r.bizCode,
    remove: (code) => creditApi.remove(CREDIT_PATHS.deleteCredDistribution, code, '额度分配'),
  });
  return (
    <ListPage<Row>
      source={CREDIT_PATHS.credDistributionList}
      rowKey="bizCode"
      filters={<CreditDocFilters />}
      toolbar={
        <AddButton code={`${MENU}:add`} onClick={() => void navigate(CREDIT_ROUTES.distEditor)}>
          新增额度分配
        </AddButton>
      }
      columns={[
        codeColumn('分配编号', 'bizCode'),
        codeColumn('授信编号', 'credBizCode'),
        { title: '客户名称', dataIndex: 'custName', key: 'custName' },
        codeColumn('平台额度', 'parentLineCode'),
        moneyColumn('分配合计', 'totalAmount'),
        dateColumn('更新时间', 'updatedAt', { withTime: true }),
        docStateColumn<Row>(),
        actions,
      ]}
    />
  );
}
