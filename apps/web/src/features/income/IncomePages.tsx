import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  AutoComplete,
  Button,
  Descriptions,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
} from 'antd';
import { useDebtorDict } from '../../shared/debtor/DebtorPicker';
import {
  INCOME_EXPORT_FILE_NAME,
  INCOME_PATHS,
  INCOME_SOURCE_LABELS,
  type IncomeImportPreview,
  type IncomeRow,
  type IncomeView,
  incomeItemSchema,
  incomeListSchema,
} from '@portal/contract/accounts';
import { formatMoney } from '@portal/contract/format';
import { useOurAccountOptions } from '../../shared/bank/our-accounts';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { SaveButtons } from '../../shared/editor/SaveButtons';
import { DateInput } from '../../shared/form/DateInput';
import { MoneyInput, formatMoneyText } from '../../shared/form/MoneyInput';
import { ImportTemplateButton } from '../../shared/files/ImportTemplateButton';
import { IMPORT_TEMPLATES } from '@portal/contract/import-templates';
import { fieldRules } from '../../shared/form/zod-rule';
import { ListPage } from '../../shared/list/ListPage';
import { KEY } from '../../shared/list/fit-columns';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { ListExportButton } from '../../shared/list/ExportButton';
import { DateRangeField, MoneyRangeField, rangeFilters } from '../../shared/list/range-fields';
import { useButtons } from '../../shared/permission/use-buttons';
import { DocViewPage } from '../../shared/workflow/DocViewPage';
import {
  DOC_STATE_OPTIONS,
  docStateColumn,
  refreshDocList,
  useDocActionsColumn,
} from '../../shared/workflow/doc-columns';
import type { DocKind } from '../../shared/workflow/doc-kind';
import { validValues } from '../../shared/ui/valid-values';
import { INCOME_ROUTES, incomeApi, incomeKeys, incomeQueries } from './api';
import { useDocSaved } from '../../shared/workflow/doc-kind';
import { useFormFill } from '../../shared/editor/use-form-fill';
import { XlsxImportButton } from '../../shared/files/XlsxImportButton';

const MENU = 'ft-income';

/** The 来款 as the document kit knows it. */
const INCOME_DOC: DocKind = {
  docType: 'income',
  menuCode: MENU,
  codeParam: 'fiidBizCode',
  routes: INCOME_ROUTES,
  listPath: INCOME_PATHS.list,
  auditPath: INCOME_PATHS.audit,
  unAuditPath: INCOME_PATHS.unAudit,
  queryKey: incomeKeys.all,
};
const rules = fieldRules(incomeItemSchema);
const toFilters = rangeFilters({
  valueDate: ['valueDateFrom', 'valueDateTo'],
  amount: ['amountStart', 'amountEnd'],
});

/**
 * 导入流水: a bank statement previewed row by row (amounts with separators, extra decimals kept
 * visible: such a row is an error); the valid rows are saved (and submitted) together.
 */
export function IncomeImportDialog({ open, onClose }: { open: boolean; onClose: (saved: boolean) => void }) {
  const [preview, setPreview] = useState<IncomeImportPreview | null>(null);
  const [reading, setReading] = useState(false);
  const close = (saved: boolean) => {
    setPreview(null);
    onClose(saved);
  };
  const save = async () => {
    if (!preview?.valid.length) return;
    const r = await incomeApi.saveImport(preview.valid).catch(() => null);
    if (r?.ok) close(true);
  };
  const bad = preview?.rows.filter((r) => r.errors.length > 0).length ?? 0;
  return (
    <Modal
      open={open}
      width={1000}
      title="导入银行流水"
      onCancel={() => close(false)}
      footer={
        <Space>
          <Button onClick={() => close(false)}>取消</Button>
          <Button type="primary" disabled={!preview?.valid.length || reading} onClick={() => void save()}>
            保存有效的 {preview?.valid.length ?? 0} 条并提交
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert
          type="info"
          showIcon
          message={`表头：${IMPORT_TEMPLATES.income.headers.join('、')}。金额最多两位小数；银行流水号在同一收款账户下不可重复。`}
        />
        <Space>
          <XlsxImportButton
            read={(file) => {
              setReading(true);
              return incomeApi
                .previewImport(file)
                .then(setPreview)
                .finally(() => setReading(false));
            }}
          >
            选择xlsx文件
          </XlsxImportButton>
          <ImportTemplateButton kind="income" />
        </Space>
        {preview || reading ? (
          <>
            {preview ? (
              <div data-testid="income-import-summary">
                共 {preview.rows.length} 行，有效 {preview.valid.length} 行，合计 {formatMoney(preview.total)}
                ；有误 {bad} 行
              </div>
            ) : null}
            <Table
              size="small"
              rowKey="row"
              pagination={false}
              loading={reading}
              scroll={{ y: 360 }}
              dataSource={preview?.rows ?? []}
              data-testid="income-import-preview"
              columns={[
                { title: '行', dataIndex: 'row', key: 'row', width: 60 },
                { title: '银行流水号', key: 'serialNo', render: (_, r) => r.item.serialNo },
                { title: '付款人', key: 'payerName', render: (_, r) => r.item.payerName },
                {
                  title: '金额',
                  key: 'amount',
                  align: 'right',
                  render: (_, r) => formatMoneyText(r.item.amount),
                },
                { title: '交易日期', key: 'valueDate', render: (_, r) => r.item.valueDate },
                {
                  title: '校验结果',
                  key: 'errors',
                  render: (_, r) =>
                    r.errors.length ? (
                      <Space direction="vertical" size={0}>
                        {r.duplicate ? <Tag color="orange">重复</Tag> : null}
                        {r.errors.map((e) => (
                          <span key={e} style={{ color: '#cf1322' }}>
                            {e}
                          </span>
                        ))}
                      </Space>
                    ) : (
                      <Tag color="green">通过</Tag>
                    ),
                },
              ]}
            />
          </>
        ) : null}
      </Space>
    </Modal>
  );
}

/** 来款 list. */
export function IncomeListPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const buttons = useButtons(MENU);
  const [importing, setImporting] = useState(false);
  const actions = useDocActionsColumn<IncomeRow>(INCOME_DOC, {
    code: (r) => r.fiidBizCode,
    remove: incomeApi.remove,
  });
  return (
    <div data-testid="income-list">
      <ListPage<IncomeRow>
        source={INCOME_PATHS.list}
        sortable={incomeListSchema.sortable}
        rowKey="fiidBizCode"
        toFilters={toFilters}
        filters={
          <>
            <Form.Item name="payerName" label="付款人">
              <Input allowClear />
            </Form.Item>
            <Form.Item name="serialNo" label="银行流水号">
              <Input allowClear />
            </Form.Item>
            <Form.Item name="state" label="审核状态">
              <Select allowClear style={{ width: 120 }} options={DOC_STATE_OPTIONS} />
            </Form.Item>
            <DateRangeField name="valueDate" label="来款日期" />
            <MoneyRangeField name="amount" label="来款金额" />
          </>
        }
        toolbar={
          <Space>
            {buttons.has('add') ? (
              <Button type="primary" onClick={() => void navigate(INCOME_ROUTES.editor)}>
                新增来款
              </Button>
            ) : null}
            {buttons.has('import') ? <Button onClick={() => setImporting(true)}>导入流水</Button> : null}
            <ListExportButton menu={MENU} path={INCOME_PATHS.listExport} fileName={INCOME_EXPORT_FILE_NAME} />
          </Space>
        }
        columns={[
          codeColumn('来款编号', 'fiidBizCode'),
          { title: '付款人', dataIndex: 'payerName', key: 'payerName', priority: KEY },
          { title: '银行流水号', dataIndex: 'serialNo', key: 'serialNo' },
          dateColumn('来款日期', 'valueDate'),
          moneyColumn('来款金额', 'amount', { priority: KEY }),
          moneyColumn('已核销', 'allocated'),
          moneyColumn('未核销余额', 'balance', { priority: KEY }),
          {
            title: '来源',
            key: 'source',
            render: (_: unknown, r: IncomeRow) => INCOME_SOURCE_LABELS[r.source],
          },
          docStateColumn<IncomeRow>(),
          actions,
        ]}
      />
      <IncomeImportDialog
        open={importing}
        onClose={(saved) => {
          setImporting(false);
          if (saved) refreshDocList(queryClient, INCOME_DOC);
        }}
      />
    </div>
  );
}

type Values = Record<string, string | undefined>;

/** 来款编辑. */
export function IncomeEditorPage() {
  const [params] = useSearchParams();
  const code = params.get('fiidBizCode') ?? '';
  const [form] = Form.useForm<Values>();
  const [version, setVersion] = useState<number | undefined>();
  const existing = useQuery(incomeQueries.view(code));
  const accounts = useOurAccountOptions();
  const debtors = useDebtorDict();
  useFormFill(existing, (v) => {
    form.setFieldsValue({
      bankBizCode: v.bankBizCode,
      payerName: v.payerName,
      payerAccount: v.payerAccount ?? undefined,
      payerBank: v.payerBank ?? undefined,
      amount: v.amount,
      valueDate: v.valueDate,
      serialNo: v.serialNo,
      remark: v.remark ?? undefined,
    });
    setVersion(v.version);
  });
  const saved = useDocSaved(INCOME_DOC, code);
  const save = async (submit: boolean) => {
    const values = await validValues(form);
    if (!values) return;
    const r = await incomeApi
      .save({ ...values, ...(code ? { fiidBizCode: code, version } : {}) }, submit)
      .catch(() => null);
    if (!r?.ok || !r.data) return;
    setVersion(r.data.version);
    saved(r.data.fiidBizCode, submit);
  };
  return (
    <EditorFrame
      testId="income-editor"
      title={code ? `来款编辑 ${code}` : '新增来款'}
      backTo={INCOME_ROUTES.list}
      doc={code ? { docType: 'income', docCode: code } : undefined}
    >
      <Form form={form} layout="vertical" style={{ maxWidth: 720 }}>
        <Form.Item name="bankBizCode" label="收款账户" rules={rules.bankBizCode}>
          <Select aria-label="收款账户" loading={accounts.loading} options={accounts.options} />
        </Form.Item>
        <Space wrap>
          <Form.Item
            name="payerName"
            label="付款人名称"
            rules={rules.payerName}
            tooltip="可从债务人客户中选择：核销时优先列出以其为付款方或债务人的合同"
          >
            <AutoComplete
              aria-label="付款人名称"
              style={{ width: 260 }}
              options={(debtors.data ?? []).map((d) => ({ value: d.label }))}
              filterOption={(input, o) => String(o?.value ?? '').includes(input)}
            />
          </Form.Item>
          <Form.Item name="payerAccount" label="付款人账号" rules={rules.payerAccount}>
            <Input style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="payerBank" label="付款人开户行" rules={rules.payerBank}>
            <Input style={{ width: 220 }} />
          </Form.Item>
        </Space>
        <Space wrap>
          <Form.Item name="amount" label="来款金额" rules={rules.amount}>
            <MoneyInput aria-label="来款金额" />
          </Form.Item>
          <Form.Item name="valueDate" label="来款日期" rules={rules.valueDate}>
            <DateInput aria-label="来款日期" />
          </Form.Item>
          <Form.Item name="serialNo" label="银行流水号" rules={rules.serialNo}>
            <Input aria-label="银行流水号" style={{ width: 220 }} />
          </Form.Item>
        </Space>
        <Form.Item name="remark" label="备注" rules={rules.remark}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <SaveButtons save={save} />
      </Form>
    </EditorFrame>
  );
}

/** 来款查看 in the audit view, with the write-offs that used it. */
export function IncomeViewPage() {
  return (
    <DocViewPage kind={INCOME_DOC} testId="income-view" title="来款" load={incomeApi.view}>
      {(v) => (
        <>
          <Descriptions size="small" bordered column={3}>
            <Descriptions.Item label="收款账户">{`${v.bankAccountName ?? ''} ${v.bankAccountNo ?? ''}`}</Descriptions.Item>
            <Descriptions.Item label="付款人">{v.payerName}</Descriptions.Item>
            <Descriptions.Item label="付款人账号">{v.payerAccount ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="来款金额">{formatMoney(v.amount)}</Descriptions.Item>
            <Descriptions.Item label="已核销">{formatMoney(v.allocated)}</Descriptions.Item>
            <Descriptions.Item label="未核销余额">
              <span data-testid="income-balance">{formatMoney(v.balance)}</span>
            </Descriptions.Item>
            <Descriptions.Item label="来款日期">{v.valueDate}</Descriptions.Item>
            <Descriptions.Item label="银行流水号">{v.serialNo}</Descriptions.Item>
            <Descriptions.Item label="来源">{INCOME_SOURCE_LABELS[v.source]}</Descriptions.Item>
          </Descriptions>
          <Table<IncomeView['paids'][number]>
            style={{ marginTop: 12 }}
            size="small"
            rowKey="paidBizCode"
            pagination={false}
            dataSource={v.paids}
            locale={{ emptyText: '暂无核销' }}
            columns={[
              codeColumn('核销编号', 'paidBizCode'),
              { title: '合同号', dataIndex: 'contractNo', key: 'contractNo' },
              moneyColumn('核销金额', 'amount'),
              {
                title: '冲红',
                key: 'red',
                render: (_, r) => (r.red ? <Tag color="red">已冲红</Tag> : '—'),
              },
            ]}
          />
        </>
      )}
    </DocViewPage>
  );
}
