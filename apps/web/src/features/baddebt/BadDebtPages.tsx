import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, Space, Tag } from 'antd';
import {
  BAD_DEBT_EXPORT_FILE_NAME,
  BAD_DEBT_MENU,
  BAD_DEBT_PATHS,
  BAD_DEBT_RED_LABELS,
  badDebtListSchema,
  badDebtSaveSchema,
  type BadDebtQuote,
  type BadDebtRow,
  type BadDebtView,
} from '@portal/contract/baddebt';
import { formatMoney } from '@portal/contract/format';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { SaveButtons } from '../../shared/editor/SaveButtons';
import { useFormFill } from '../../shared/editor/use-form-fill';
import { DateInput } from '../../shared/form/DateInput';
import { fieldRules } from '../../shared/form/zod-rule';
import { KEY } from '../../shared/list/fit-columns';
import { ListPage } from '../../shared/list/ListPage';
import { ListExportButton } from '../../shared/list/ExportButton';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import { ClosureAmounts } from '../../shared/plan/ClosureAmounts';
import { post, update } from '../../shared/request/http';
import { DocViewPage } from '../../shared/workflow/DocViewPage';
import { docStateColumn, refreshDocList, useDocActionsColumn } from '../../shared/workflow/doc-columns';
import { ContractDocFilters } from '../../shared/workflow/doc-filters';
import { useDocSaved, type DocKind } from '../../shared/workflow/doc-kind';
import { RedReasonDialog } from '../../shared/workflow/RedReasonDialog';
import { useBizDate } from '../../shared/bizdate/api';

/** 核销坏账 screens (docs/accounting.md "Bad-debt write-off"). */
export const BAD_DEBT_ROUTES = {
  list: '/factoring/accounts/bad-debt',
  editor: '/factoring/accounts/bad-debt-editor',
  view: '/factoring/accounts/bad-debt-view',
} as const;
const withCode = (badDebtBizCode: string) => ({ query: { badDebtBizCode } });

const BAD_DEBT_DOC: DocKind = {
  docType: 'badDebt',
  menuCode: BAD_DEBT_MENU,
  codeParam: 'badDebtBizCode',
  routes: BAD_DEBT_ROUTES,
  listPath: BAD_DEBT_PATHS.list,
  auditPath: BAD_DEBT_PATHS.audit,
  unAuditPath: BAD_DEBT_PATHS.unAudit,
  queryKey: ['badDebt'],
};

const badDebtApi = {
  view: (code: string) => post<BadDebtView>(BAD_DEBT_PATHS.viewBaseInfo, undefined, withCode(code)),
  quote: (contBizCode: string, writeOffDate: string) =>
    post<BadDebtQuote>(BAD_DEBT_PATHS.quote, undefined, { query: { contBizCode, writeOffDate } }),
  remove: (code: string) =>
    update(BAD_DEBT_PATHS.deleteInfo, undefined, {
      ...withCode(code),
      confirm: '确定要删除该核销坏账单吗？',
    }),
  rushRed: (code: string, reason: string) =>
    update(
      BAD_DEBT_PATHS.rushRed,
      { reason },
      { ...withCode(code), confirm: '确定要冲红该核销坏账单吗？合同的还款计划将恢复，合同重新履约。' },
    ),
};

/** 核销坏账 list; a write-off is started here from a contract code and a date. */
export function BadDebtListPage() {
  const queryClient = useQueryClient();
  const buttons = useButtons(BAD_DEBT_MENU);
  const [red, setRed] = useState<string | null>(null);
  const actions = useDocActionsColumn<BadDebtRow>(BAD_DEBT_DOC, {
    code: (r) => r.badDebtBizCode,
    remove: badDebtApi.remove,
    extra: (r) => [
      {
        label: '冲红',
        danger: true,
        hidden: !(r.state === 'approved' && r.redState === 'none' && buttons.has('rushRed')),
        onClick: () => setRed(r.badDebtBizCode),
      },
    ],
  });
  return (
    <div data-testid="bad-debt-list">
      <ListPage<BadDebtRow>
        source={BAD_DEBT_PATHS.list}
        rowKey="badDebtBizCode"
        sortable={badDebtListSchema.sortable}
        filters={<ContractDocFilters />}
        toolbar={
          <Space>
            {buttons.has('add') ? (
              <Button type="primary" href={BAD_DEBT_ROUTES.editor}>
                新增核销坏账
              </Button>
            ) : null}
            <ListExportButton
              menu={BAD_DEBT_MENU}
              path={BAD_DEBT_PATHS.listExport}
              fileName={BAD_DEBT_EXPORT_FILE_NAME}
            />
          </Space>
        }
        columns={[
          codeColumn('核销坏账编号', 'badDebtBizCode'),
          { title: '合同号', dataIndex: 'contractNo', key: 'contractNo', priority: 2 },
          { title: '客户名称', dataIndex: 'custName', key: 'custName', priority: KEY },
          dateColumn('核销日期', 'writeOffDate'),
          moneyColumn('本金', 'principal', { priority: KEY }),
          moneyColumn('利息', 'interest', { priority: 3 }),
          moneyColumn('罚息', 'penalty', { priority: 3 }),
          moneyColumn('核销金额', 'amount', { priority: KEY }),
          docStateColumn<BadDebtRow>(),
          {
            title: '冲红',
            key: 'red',
            width: 80,
            priority: 2,
            render: (_: unknown, r: BadDebtRow) =>
              r.redState === 'reversed' ? <Tag color="red">{BAD_DEBT_RED_LABELS.reversed}</Tag> : null,
          },
          actions,
        ]}
      />
      <RedReasonDialog
        title="冲红核销坏账"
        code={red}
        rushRed={badDebtApi.rushRed}
        onClose={(done) => {
          setRed(null);
          if (done) refreshDocList(queryClient, BAD_DEBT_DOC);
        }}
      />
    </div>
  );
}

/** What is written off, part by part, how the principal is charged, and the plan lines closed. */
function WriteOffFigures({ v }: { v: BadDebtQuote | BadDebtView }) {
  return (
    <>
      <ClosureAmounts
        parts={[
          ['未还本金', v.principal],
          ['应收利息（计至核销日）', v.interest],
          ['费用', v.fee],
          ['罚息', v.penalty],
        ]}
        total={{ label: '核销金额', amount: v.amount, testId: 'bad-debt-amount' }}
        lines={v.lines}
      />
      <Descriptions size="small" bordered column={3} style={{ marginTop: 12 }}>
        <Descriptions.Item label="已计提坏账准备">{formatMoney(v.reserveHeld)}</Descriptions.Item>
        <Descriptions.Item label="冲减坏账准备">
          <span data-testid="bad-debt-reserve">{formatMoney(v.reserveUsed)}</span>
        </Descriptions.Item>
        <Descriptions.Item label="计入信用减值损失">
          <span data-testid="bad-debt-loss">{formatMoney(v.lossCharged)}</span>
        </Descriptions.Item>
      </Descriptions>
    </>
  );
}

const RULES = fieldRules(badDebtSaveSchema);

/** 核销坏账编辑: the contract and the date give the amount, recomputed by the server. */
export function BadDebtEditorPage() {
  const [params] = useSearchParams();
  const code = params.get('badDebtBizCode') ?? '';
  const [form] = Form.useForm<{ contBizCode?: string; writeOffDate?: string; remark?: string }>();
  const [version, setVersion] = useState<number | undefined>();
  const biz = useBizDate();
  const contBizCode = Form.useWatch('contBizCode', form);
  const writeOffDate = Form.useWatch('writeOffDate', form);
  const existing = useQuery({
    queryKey: ['badDebt', 'edit', code],
    queryFn: () => badDebtApi.view(code),
    enabled: !!code,
  });
  useFormFill(existing.data, (v) => {
    form.setFieldsValue({ contBizCode: v.contBizCode, writeOffDate: v.writeOffDate, remark: v.remark ?? '' });
    setVersion(v.version);
  });
  useEffect(() => {
    if (!code && biz.data && !form.getFieldValue('writeOffDate'))
      form.setFieldsValue({ writeOffDate: biz.data.businessDate });
  }, [biz.data, code, form]);
  const quotable = /^\d{12}$/.test(contBizCode ?? '') && /^\d{4}-\d{2}-\d{2}$/.test(writeOffDate ?? '');
  const quote = useQuery({
    queryKey: ['badDebt', 'quote', contBizCode, writeOffDate],
    queryFn: () => badDebtApi.quote(contBizCode!, writeOffDate!),
    enabled: quotable,
    retry: false,
  });
  const saved = useDocSaved(BAD_DEBT_DOC, code);
  const save = async (submit: boolean) => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const r = await update<{ badDebtBizCode: string; version: number }>(
      BAD_DEBT_PATHS.saveBaseInfo,
      { ...values, ...(code ? { badDebtBizCode: code, version } : {}), submit },
      { confirm: `此操作将保存核销坏账单${submit ? '并提交审批' : ''}！ 是否继续？` },
    ).catch(() => null);
    if (!r?.ok || !r.data) return;
    setVersion(r.data.version);
    saved(r.data.badDebtBizCode, submit);
  };
  return (
    <EditorFrame
      testId="bad-debt-editor"
      title={code ? `核销坏账编辑 ${code}` : '新增核销坏账'}
      backTo={BAD_DEBT_ROUTES.list}
      doc={code ? { docType: 'badDebt', docCode: code } : undefined}
      actions={<SaveButtons save={save} disabled={!quote.data} />}
    >
      <Form form={form} layout="inline" style={{ marginBottom: 12 }}>
        <Form.Item name="contBizCode" label="合同编号" rules={RULES.contBizCode}>
          <Input aria-label="合同编号" style={{ width: 160 }} maxLength={12} />
        </Form.Item>
        <Form.Item name="writeOffDate" label="核销日期" rules={RULES.writeOffDate}>
          <DateInput aria-label="核销日期" />
        </Form.Item>
        <Form.Item name="remark" label="核销原因" rules={RULES.remark}>
          <Input aria-label="核销原因" style={{ width: 320 }} maxLength={500} />
        </Form.Item>
      </Form>
      {quote.error ? <Alert type="warning" showIcon message={(quote.error as Error).message} /> : null}
      {quote.data ? (
        <>
          <Descriptions size="small" bordered column={2} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="合同">{`${quote.data.contractNo}（${quote.data.contBizCode}）`}</Descriptions.Item>
            <Descriptions.Item label="客户">{quote.data.custName}</Descriptions.Item>
          </Descriptions>
          <WriteOffFigures v={quote.data} />
        </>
      ) : null}
    </EditorFrame>
  );
}

/** 核销坏账查看: the figures, how the principal is charged, the credit released, the 冲红 if any. */
export function BadDebtViewPage() {
  return (
    <DocViewPage
      kind={BAD_DEBT_DOC}
      testId="bad-debt-view"
      title="核销坏账"
      load={badDebtApi.view}
      tags={(v) =>
        v.redState === 'reversed' ? (
          <Tag color="red">{BAD_DEBT_RED_LABELS.reversed}</Tag>
        ) : v.state === 'approved' ? (
          <Tag color="error">已核销</Tag>
        ) : null
      }
    >
      {(v) => (
        <>
          <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="合同">{`${v.contractNo}（${v.contBizCode}）`}</Descriptions.Item>
            <Descriptions.Item label="客户">{v.custName}</Descriptions.Item>
            <Descriptions.Item label="核销日期">{v.writeOffDate}</Descriptions.Item>
            <Descriptions.Item label="释放额度">{formatMoney(v.released)}</Descriptions.Item>
            <Descriptions.Item label="结转核销">{v.paidBizCode ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="核销原因">{v.remark ?? '—'}</Descriptions.Item>
            {v.redState === 'reversed' ? (
              <Descriptions.Item label="冲红原因">{v.redReason}</Descriptions.Item>
            ) : null}
          </Descriptions>
          <WriteOffFigures v={v} />
        </>
      )}
    </DocViewPage>
  );
}
