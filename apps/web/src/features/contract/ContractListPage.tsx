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
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { ListExportButton } from '../../shared/list/ExportButton';
import { DateRangeField, MoneyRangeField, rangeFilters } from '../../shared/list/range-fields';
import { Auth } from '../../shared/permission/Auth';
import { useButtons } from '../../shared/permission/use-buttons';
import { confirmAction } from '../../shared/ui/feedback';
import { CONTRACT_ROUTES, contractApi } from './api';
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
          codeColumn('合同编号', 'bizCode'),
          { title: '合同号', dataIndex: 'contractNo', key: 'contractNo' },
          { title: '客户名称', dataIndex: 'custName', key: 'custName' },
          {
            title: '产品',
            dataIndex: 'product',
            key: 'product',
            render: (v: keyof typeof PRODUCT_LABELS) => PRODUCT_LABELS[v],
          },
          moneyColumn('融资金额', 'financingAmount'),
          moneyColumn('在贷本金', 'principalOutstanding'),
          dateColumn('起始日', 'startDate'),
          dateColumn('到期日', 'maturityDate'),
          {
            title: '状态',
            key: 'state',
            // 已审核 履约中 已放款 side by side.
            width: 220,
            render: (_: unknown, r: ContractListRow) => <ContractStateTags row={r} />,
          },
          {
            title: '转让通知',
            key: 'noticeState',
            width: 130,
            render: (_: unknown, r: ContractListRow) => (
              <Tag color={NOTICE_STATE_COLORS[r.noticeState]} data-testid={`notice-state-${r.contractNo}`}>
                {ASSIGN_STATE_LABELS[r.noticeState]}
              </Tag>
            ),
          },
          {
            title: '操作',
            key: 'actions',
            // 查看 and the three actions of an effective contract on one line.
            width: 290,
            render: (_: unknown, r: ContractListRow) => {
              const editable = r.state === 'draft' || r.state === 'rejected';
              const live = r.state === 'approved' && r.status === 'effective';
              return (
                <Space size={4} wrap>
                  <Button
                    type="link"
                    size="small"
                    onClick={() => void navigate(`${CONTRACT_ROUTES.view}?bizCode=${r.bizCode}`)}
                  >
                    查看
                  </Button>
                  {editable && buttons.has('save') ? (
                    <Button
                      type="link"
                      size="small"
                      onClick={() => void navigate(`${CONTRACT_ROUTES.editor}?bizCode=${r.bizCode}`)}
                    >
                      编辑
                    </Button>
                  ) : null}
                  {editable && buttons.has('delete') ? (
                    <Button type="link" size="small" danger onClick={() => void remove(r)}>
                      删除
                    </Button>
                  ) : null}
                  {live && buttons.has('isPrevious') ? (
                    <Button type="link" size="small" onClick={() => void prepayment(r)}>
                      生成前期款
                    </Button>
                  ) : null}
                  {live && buttons.has('isChange') ? (
                    <Button type="link" size="small" onClick={() => void change(r)}>
                      合同变更
                    </Button>
                  ) : null}
                  {live && r.loanState === 'none' && buttons.has('isLoan') ? (
                    <Button type="link" size="small" onClick={() => void loan(r)}>
                      放款
                    </Button>
                  ) : null}
                </Space>
              );
            },
          },
        ]}
      />
      <OpeningImportDialog
        open={opening}
        onClose={(saved) => {
          setOpening(false);
          if (saved) void queryClient.invalidateQueries({ queryKey: ['list', CONTRACT_PATHS.list] });
        }}
      />
    </div>
  );
}
