import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Form, Input, Select, Space, Tag } from 'antd';
import {
  CONTRACT_EXPORT_FILE_NAME,
  CONTRACT_PATHS,
  CONTRACT_STATUS_LABELS,
  DOC_STATE_LABELS,
  LOAN_STATE_LABELS,
  type ContractListRow,
  contractListSchema,
} from '@portal/contract/contract';
import { PRODUCT_LABELS } from '@portal/contract/credit';
import { ASSIGN_STATE_LABELS, type NoticeState } from '@portal/contract/assignment';
import { button } from '@portal/contract/menus';
import { ListPage } from '../../shared/list/ListPage';
import { actionsColumn } from '../../shared/list/RowActions';
import { KEY } from '../../shared/list/fit-columns';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { ListExportButton } from '../../shared/list/ExportButton';
import { DateRangeField, MoneyRangeField, rangeFilters } from '../../shared/list/range-fields';
import { Auth } from '../../shared/permission/Auth';
import { useButtons } from '../../shared/permission/use-buttons';
import { confirmAction } from '../../shared/ui/feedback';
import { CONTRACT_ROUTES, contractApi, contractKeys } from './api';
import { ContractStateTags, options } from './state-tags';
import { OpeningImportDialog } from './OpeningImportDialog';

const MENU = 'ft-contract-info';
const NOTICE_STATE_COLORS: Record<NoticeState, string> = {
  none: 'default',
  pending: 'orange',
  confirmed: 'green',
};
/** Filters a link may carry (the dashboard's figures open the list filtered the same way). */
const LINK_FILTERS = ['overdue', 'itemDueFrom', 'itemDueTo', 'status', 'custName', 'contractNo'] as const;

const toFilters = rangeFilters({
  startDate: ['startDateFrom', 'startDateTo'],
  maturity: ['maturityFrom', 'maturityTo'],
  financingAmount: ['financingAmountStart', 'financingAmountEnd'],
});

/** 合同信息 list with the row actions and their confirmations. */
export default function ContractListPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const buttons = useButtons(MENU);
  const queryClient = useQueryClient();
  const [opening, setOpening] = useState(false);
  const linked = useMemo(() => {
    const out: Record<string, string> = {};
    for (const k of LINK_FILTERS) {
      const v = params.get(k);
      if (v) out[k] = v;
    }
    return out;
  }, [params]);
  const linkKey = new URLSearchParams(linked).toString();

  const remove = (r: ContractListRow) =>
    contractApi.remove(CONTRACT_PATHS.infoDelete, r.bizCode, '合同').catch(() => undefined);
  const prepayment = async (r: ContractListRow) => {
    if (!(await confirmAction('确定要根据该合同生成前期款吗？'))) return;
    const ok = await contractApi.prepaymentInit(r.bizCode).then(
      () => true,
      () => false,
    );
    if (ok) void navigate(`${CONTRACT_ROUTES.prepayment}?contBizCode=${r.bizCode}`);
  };
  const change = async (r: ContractListRow) => {
    const ok = await contractApi.changeInit(r.bizCode).then(
      () => true,
      () => false,
    );
    if (ok) void navigate(`${CONTRACT_ROUTES.chgEditor}?contBizCode=${r.bizCode}`);
  };
  // 放款 opens a new 放款单 (maker-checker document) prefilled from the contract.
  const loan = async (r: ContractListRow) => {
    const ok = await contractApi.loanInit(r.bizCode).then(
      () => true,
      () => false,
    );
    if (ok) void navigate(`${CONTRACT_ROUTES.loanEditor}?contBizCode=${r.bizCode}`);
  };

  return (
    <div data-testid="contract-list">
      <ListPage<ContractListRow>
        key={linkKey}
        source={CONTRACT_PATHS.list}
        sortable={contractListSchema.sortable}
        rowKey="bizCode"
        initialFilters={linked}
        toFilters={toFilters}
        conditionKey={linkKey ? `contract-list?${linkKey}` : undefined}
        filters={
          <>
            <Form.Item name="contractNo" label="合同号">
              <Input allowClear />
            </Form.Item>
            <Form.Item name="custName" label="客户名称">
              <Input allowClear />
            </Form.Item>
            <Form.Item name="state" label="审核状态">
              <Select allowClear style={{ width: 120 }} options={options(DOC_STATE_LABELS)} />
            </Form.Item>
            <Form.Item name="status" label="合同状态">
              <Select allowClear style={{ width: 120 }} options={options(CONTRACT_STATUS_LABELS)} />
            </Form.Item>
            <Form.Item name="loanState" label="放款状态">
              <Select allowClear style={{ width: 120 }} options={options(LOAN_STATE_LABELS)} />
            </Form.Item>
            <DateRangeField name="startDate" label="起始日" />
            <DateRangeField name="maturity" label="到期日" />
            <MoneyRangeField name="financingAmount" label="融资金额" />
            {/* Carried by a dashboard link; kept so the search form sends them too. */}
            <Form.Item name="overdue" hidden>
              <Input />
            </Form.Item>
            <Form.Item name="itemDueFrom" hidden>
              <Input />
            </Form.Item>
            <Form.Item name="itemDueTo" hidden>
              <Input />
            </Form.Item>
          </>
        }
        toolbar={
          <Space>
            {linked.overdue ? <Tag color="error">逾期合同</Tag> : null}
            {linked.itemDueFrom ? (
              <Tag color="warning">
                {linked.itemDueFrom} 至 {linked.itemDueTo} 到期
              </Tag>
            ) : null}
            <Auth code={`${MENU}:add`}>
              <Button type="primary" onClick={() => void navigate(CONTRACT_ROUTES.editor)}>
                新增合同
              </Button>
            </Auth>
            {buttons.has('openingImport') ? (
              <Button onClick={() => setOpening(true)} data-testid="opening-import">
                期初导入
              </Button>
            ) : null}
            <ListExportButton
              menu={MENU}
              path={CONTRACT_PATHS.listExport}
              fileName={CONTRACT_EXPORT_FILE_NAME}
            />
          </Space>
        }
        columns={[
          // The office's own 合同号 names the row; the system code gives way first at 1280.
          codeColumn('合同编号', 'bizCode', { priority: 2 }),
          { title: '合同号', dataIndex: 'contractNo', key: 'contractNo', priority: KEY },
          { title: '客户名称', dataIndex: 'custName', key: 'custName', priority: KEY },
          {
            title: '产品',
            dataIndex: 'product',
            key: 'product',
            priority: 3,
            render: (v: keyof typeof PRODUCT_LABELS) => PRODUCT_LABELS[v],
          },
          moneyColumn('融资金额', 'financingAmount', { priority: KEY }),
          moneyColumn('在贷本金', 'principalOutstanding', { priority: 2 }),
          dateColumn('起始日', 'startDate', { priority: 3 }),
          dateColumn('到期日', 'maturityDate', { priority: 2 }),
          {
            title: '状态',
            key: 'state',
            // 已审核 履约中 已放款 side by side.
            width: 220,
            priority: KEY,
            render: (_: unknown, r: ContractListRow) => <ContractStateTags row={r} />,
          },
          {
            title: '转让通知',
            key: 'noticeState',
            width: 130,
            priority: 2,
            render: (_: unknown, r: ContractListRow) => (
              <Tag color={NOTICE_STATE_COLORS[r.noticeState]} data-testid={`notice-state-${r.contractNo}`}>
                {ASSIGN_STATE_LABELS[r.noticeState]}
              </Tag>
            ),
          },
          // 放款 first after 查看: of a live contract's four actions it is the one taken most, the
          // rest go under 更多 (docs/architecture.md "Lists fit their box").
          actionsColumn<ContractListRow>((r) => {
            const editable = r.state === 'draft' || r.state === 'rejected';
            const live = r.state === 'approved' && r.status === 'effective';
            return [
              {
                label: '查看',
                onClick: () => void navigate(`${CONTRACT_ROUTES.view}?bizCode=${r.bizCode}`),
              },
              {
                label: '编辑',
                code: button(MENU, 'save'),
                hidden: !editable,
                onClick: () => void navigate(`${CONTRACT_ROUTES.editor}?bizCode=${r.bizCode}`),
              },
              {
                label: '删除',
                code: button(MENU, 'delete'),
                danger: true,
                hidden: !editable,
                onClick: () => void remove(r),
              },
              {
                label: '放款',
                code: button(MENU, 'isLoan'),
                hidden: !live || r.loanState !== 'none',
                onClick: () => void loan(r),
              },
              {
                label: '生成前期款',
                code: button(MENU, 'isPrevious'),
                hidden: !live,
                onClick: () => void prepayment(r),
              },
              {
                label: '合同变更',
                code: button(MENU, 'isChange'),
                hidden: !live,
                onClick: () => void change(r),
              },
            ];
          }),
        ]}
      />
      <OpeningImportDialog
        open={opening}
        onClose={(saved) => {
          setOpening(false);
          if (saved) void queryClient.invalidateQueries({ queryKey: contractKeys.list });
        }}
      />
    </div>
  );
}
