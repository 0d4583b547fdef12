import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Select, Space, Table, Tabs, Tag } from 'antd';
import {
  CREDIT_PATHS,
  CURRENCY_LABELS,
  CYCLE_LABELS,
  GUARANTEE_MODE_LABELS,
  PRODUCT_LABELS,
  RECOURSE_LABELS,
  type ImportPreviewRow,
  type InvoiceVerdict,
  type ReceivableItem,
  ftItemSchema,
  platformSaveSchema,
  receivableItemSchema,
} from '@portal/contract/credit';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { DebtorCell } from '../../shared/debtor/DebtorPicker';
import { FileList } from '../../shared/files/FileList';
import { useUploadGuard } from '../../shared/files/upload-guard';
import { DateInput } from '../../shared/form/DateInput';
import { ListEditor, type ListEditorColumn } from '../../shared/form/ListEditor';
import { MoneyInput, formatMoneyText } from '../../shared/form/MoneyInput';
import { ImportTemplateButton } from '../../shared/files/ImportTemplateButton';
import { fieldRules, formRules } from '../../shared/form/zod-rule';
import type { FileItem } from '../../shared/files/files-api';
import { CREDIT_ROUTES, creditApi, creditKeys, creditQueries, importReceivables, type Saved } from './api';
import { DocStateTag } from '../../shared/workflow/DocStateTag';
import { CREDIT_DOC } from './doc-kinds';
import { validValues } from '../../shared/ui/valid-values';
import { usePageFormName } from '../../shared/form/form-name';
import { labelOptions } from '../../shared/form/label-options';
import { useFormFill } from '../../shared/editor/use-form-fill';
import { GuaranteeEditor } from './GuaranteeSection';
import { XlsxImportButton } from '../../shared/files/XlsxImportButton';

const platformRules = formRules(platformSaveSchema);
const ftRules = fieldRules(ftItemSchema);
const recRules = fieldRules(receivableItemSchema);

type Values = Record<string, unknown>;

/** 授信编辑: the credit's sections as tabs; each tab saves its section with the credit's version. */
export default function CreditEditorPage() {
  const [params] = useSearchParams();
  const bizCode = params.get('bizCode') ?? '';
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [version, setVersion] = useState<number | undefined>();
  const [platformForm] = Form.useForm<Values>();
  const [ftForm] = Form.useForm<Values>();
  const [recForm] = Form.useForm<Values>();
  const formName = usePageFormName('credit');
  const [files, setFiles] = useState<FileItem[]>([]);
  const fileUploads = useUploadGuard('授信文件');
  const [preview, setPreview] = useState<ImportPreviewRow[] | null>(null);
  const [verdicts, setVerdicts] = useState<InvoiceVerdict[] | null>(null);

  const customers = useQuery(creditQueries.customers());
  const credit = useQuery(creditQueries.platform(bizCode));
  const ft = useQuery(creditQueries.ft(bizCode));
  const rec = useQuery(creditQueries.receivables(bizCode));
  const fileQuery = useQuery(creditQueries.files(bizCode));

  useFormFill(credit, (c) => {
    setVersion(c.version);
    platformForm.setFieldsValue({ ...c, remark: c.remark ?? undefined });
  });
  useFormFill(ft, (items) => ftForm.setFieldsValue({ items }));
  useFormFill(rec, (items) => recForm.setFieldsValue({ items }));
  useEffect(() => void (fileQuery.data && setFiles(fileQuery.data)), [fileQuery.data]);

  const editable = !bizCode || credit.data?.state === 'draft' || credit.data?.state === 'rejected';

  const after = (r: { ok: boolean; data: Saved | undefined }) => {
    if (!r.ok || !r.data) return false;
    setVersion(r.data.version);
    void qc.invalidateQueries({ queryKey: creditKeys.all });
    return true;
  };

  const savePlatform = async (submit: boolean) => {
    const values = await validValues(platformForm);
    if (!values) return;
    const body = { ...values, ...(bizCode ? { bizCode, version } : {}), submit };
    const r = await creditApi
      .save<Saved>(CREDIT_PATHS.saveCreditPlatform, body, submit ? '平台授信并提交审批' : '平台授信')
      .catch(() => null);
    if (!r || !after(r)) return;
    if (submit) navigate(`${CREDIT_ROUTES.view}?bizCode=${r.data!.bizCode}`);
    else if (!bizCode) navigate(`${CREDIT_ROUTES.editor}?bizCode=${r.data!.bizCode}`, { replace: true });
  };

  const saveSection = async (path: string, what: string, body: Values): Promise<void> => {
    const r = await creditApi
      .save<Saved>(path, { credBizCode: bizCode, version, ...body }, what)
      .catch(() => null);
    if (r) after(r);
  };

  const onImport = async (file: File) => {
    const rows = await importReceivables(file, bizCode).catch(() => null);
    if (rows) setPreview(rows);
  };
  const acceptImport = () => {
    const good = (preview ?? []).filter((r) => r.errors.length === 0).map((r) => r.item as ReceivableItem);
    const current = (recForm.getFieldValue('items') as Values[] | undefined) ?? [];
    recForm.setFieldsValue({ items: [...current, ...good] });
    setPreview(null);
  };
  const verify = async () => {
    const rows =
      (recForm.getFieldValue('items') as Partial<Record<keyof ReceivableItem, string>>[] | undefined) ?? [];
    const items = rows.map((i) => ({
      invoiceCode: i.invoiceCode ?? '',
      invoiceNo: i.invoiceNo ?? '',
      invoiceDate: i.invoiceDate ?? '',
      amount: i.amount ?? '',
    }));
    if (items.length === 0) return;
    const r = await creditApi.verify({ credBizCode: bizCode || undefined, items }).catch(() => null);
    if (r) {
      setVerdicts(r.verdicts);
      void qc.invalidateQueries({ queryKey: creditQueries.receivables(bizCode).queryKey });
    }
  };

  const needSave = !bizCode ? <Alert type="info" showIcon message="请先保存平台授信" /> : null;

  const platformTab = (
    <Form
      form={platformForm}
      name={`${formName}-platform`}
      layout="vertical"
      disabled={!editable}
      initialValues={{ currency: 'CNY', cycle: 'cyclical', product: 'factoring', guaranteeMode: 'credit' }}
      style={{ maxWidth: 720 }}
    >
      <Form.Item name="custCode" label="客户" rules={platformRules.custCode}>
        <Select
          showSearch
          optionFilterProp="label"
          aria-label="客户"
          options={(customers.data ?? []).map((c) => ({ value: c.code, label: c.label }))}
        />
      </Form.Item>
      <Space wrap>
        <Form.Item name="limitAmount" label="授信总额度" rules={platformRules.limitAmount}>
          <MoneyInput aria-label="授信总额度" />
        </Form.Item>
        <Form.Item name="currency" label="币种" rules={platformRules.currency}>
          <Select style={{ width: 120 }} options={labelOptions(CURRENCY_LABELS)} />
        </Form.Item>
        <Form.Item name="startDate" label="起始日" rules={platformRules.startDate}>
          <DateInput aria-label="起始日" />
        </Form.Item>
        <Form.Item name="endDate" label="到期日" rules={platformRules.endDate}>
          <DateInput aria-label="到期日" />
        </Form.Item>
        <Form.Item name="cycle" label="额度类型" rules={platformRules.cycle}>
          <Select style={{ width: 120 }} aria-label="额度类型" options={labelOptions(CYCLE_LABELS)} />
        </Form.Item>
        <Form.Item name="product" label="产品" rules={platformRules.product}>
          <Select style={{ width: 140 }} options={labelOptions(PRODUCT_LABELS)} />
        </Form.Item>
        {/* docs/credit.md "Guarantees and collateral": 须有担保 needs one in force at approval. */}
        <Form.Item name="guaranteeMode" label="担保要求" rules={platformRules.guaranteeMode}>
          <Select
            style={{ width: 180 }}
            aria-label="担保要求"
            options={labelOptions(GUARANTEE_MODE_LABELS)}
          />
        </Form.Item>
      </Space>
      <Form.Item name="remark" label="备注" rules={platformRules.remark}>
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
      <Space>
        <Button type="primary" onClick={() => void savePlatform(false)}>
          保存
        </Button>
        <Button onClick={() => void savePlatform(true)}>提交审批</Button>
      </Space>
    </Form>
  );

  const listEditor = (
    form: ReturnType<typeof Form.useForm<Values>>[0],
    columns: ListEditorColumn[],
    onSave: () => void,
    testId: string,
    addText: string,
  ) => (
    <Form form={form} name={`${formName}-${testId}`} disabled={!editable || !bizCode} data-testid={testId}>
      <ListEditor
        name="items"
        columns={columns}
        addText={addText}
        removeLabel="删除行"
        extra={
          <Button
            type="primary"
            onClick={() =>
              // The rows are checked by their item schema before the section's confirmation.
              void validValues(form).then((v) => v && onSave())
            }
          >
            保存
          </Button>
        }
      />
    </Form>
  );

  const items = (form: { getFieldValue: (n: string) => unknown }) =>
    (form.getFieldValue('items') as Values[] | undefined) ?? [];

  return (
    <EditorFrame
      testId="credit-editor"
      title={bizCode ? `授信编辑 ${bizCode}` : '新增授信'}
      tags={credit.data ? <DocStateTag state={credit.data.state} /> : null}
      backTo={CREDIT_ROUTES.list}
      doc={bizCode ? { docType: CREDIT_DOC.docType, docCode: bizCode } : undefined}
    >
      <Tabs
        items={[
          { key: 'platform', label: '平台授信', children: platformTab },
          {
            key: 'gua',
            label: '担保授信',
            children: needSave ?? (
              <GuaranteeEditor
                bizCode={bizCode}
                editable={editable}
                formName={formName}
                save={(body) => saveSection(CREDIT_PATHS.saveCreditGua, '担保授信', body)}
              />
            ),
          },
          {
            key: 'ft',
            label: '保理授信',
            children:
              needSave ??
              listEditor(
                ftForm,
                [
                  {
                    name: 'debtorName',
                    title: '债务人名称',
                    rules: ftRules.debtorName,
                    cell: (i) => (
                      <DebtorCell list="items" index={i} label="债务人名称" rules={ftRules.debtorName} />
                    ),
                  },
                  {
                    name: 'limitAmount',
                    title: '保理子额度',
                    width: 180,
                    rules: ftRules.limitAmount,
                    input: <MoneyInput aria-label="保理子额度" />,
                  },
                  {
                    name: 'financingRatio',
                    title: '融资比例',
                    width: 120,
                    rules: ftRules.financingRatio,
                    input: <Input placeholder="0-1" aria-label="融资比例" />,
                  },
                  {
                    name: 'recourse',
                    title: '追索权',
                    width: 120,
                    rules: ftRules.recourse,
                    input: <Select aria-label="追索权" options={labelOptions(RECOURSE_LABELS)} />,
                  },
                ],
                () =>
                  void saveSection(CREDIT_PATHS.saveCreditFt, '保理授信', {
                    items: items(ftForm).map(({ line: _line, id: _id, ...rest }) => rest),
                  }),
                'ft-editor',
                '添加保理授信',
              ),
          },
          {
            key: 'rec',
            label: '应收账款',
            children: needSave ?? (
              <>
                <Space style={{ marginBottom: 12 }}>
                  <XlsxImportButton read={onImport}>导入应收账款</XlsxImportButton>
                  <ImportTemplateButton kind="receivables" />
                  <Button onClick={() => void verify()}>发票验证</Button>
                </Space>
                {verdicts ? (
                  <Alert
                    closable
                    onClose={() => setVerdicts(null)}
                    type={verdicts.every((v) => v.ok) ? 'success' : 'warning'}
                    message={verdicts.every((v) => v.ok) ? '发票验证通过' : '发票验证未通过'}
                    description={verdicts
                      .filter((v) => !v.ok)
                      .map(
                        (v) => `第${v.index + 1}行 ${v.invoiceCode}/${v.invoiceNo}：${v.errors.join('；')}`,
                      )
                      .join('\n')}
                    style={{ whiteSpace: 'pre-line', marginBottom: 12 }}
                  />
                ) : null}
                {listEditor(
                  recForm,
                  [
                    {
                      name: 'invoiceCode',
                      title: '发票代码',
                      width: 140,
                      rules: recRules.invoiceCode,
                      input: <Input aria-label="发票代码" />,
                    },
                    {
                      name: 'invoiceNo',
                      title: '发票号码',
                      width: 120,
                      rules: recRules.invoiceNo,
                      input: <Input aria-label="发票号码" />,
                    },
                    {
                      name: 'invoiceDate',
                      title: '开票日期',
                      width: 140,
                      rules: recRules.invoiceDate,
                      input: <DateInput aria-label="开票日期" />,
                    },
                    {
                      name: 'amount',
                      title: '发票金额',
                      width: 150,
                      rules: recRules.amount,
                      input: <MoneyInput aria-label="发票金额" />,
                    },
                    {
                      name: 'debtorName',
                      title: '债务人名称',
                      rules: recRules.debtorName,
                      cell: (i) => (
                        <DebtorCell list="items" index={i} label="债务人名称" rules={recRules.debtorName} />
                      ),
                    },
                    {
                      name: 'dueDate',
                      title: '到期日',
                      width: 140,
                      rules: recRules.dueDate,
                      input: <DateInput aria-label="到期日" />,
                    },
                  ],
                  () =>
                    void saveSection(CREDIT_PATHS.saveReceivables, '应收账款', {
                      items: items(recForm).map(
                        ({ id: _id, verifyState: _v, verifyMsg: _m, ...rest }) => rest,
                      ),
                    }),
                  'rec-editor',
                  '添加应收账款',
                )}
                {(rec.data ?? []).some((r) => r.verifyState !== 'unverified') ? (
                  <div style={{ marginTop: 8 }}>
                    {(rec.data ?? []).map((r) => (
                      <Tag
                        key={r.id}
                        color={
                          r.verifyState === 'passed'
                            ? 'success'
                            : r.verifyState === 'failed'
                              ? 'error'
                              : 'default'
                        }
                      >
                        {r.invoiceNo}
                      </Tag>
                    ))}
                  </div>
                ) : null}
                <Modal
                  title="导入预览"
                  width={900}
                  open={preview !== null}
                  onCancel={() => setPreview(null)}
                  onOk={acceptImport}
                  okText="导入无误的行"
                >
                  <Table<ImportPreviewRow>
                    size="small"
                    rowKey="row"
                    pagination={false}
                    dataSource={preview ?? []}
                    columns={[
                      { title: '行', dataIndex: 'row', width: 50 },
                      { title: '发票代码', render: (_, r) => r.item.invoiceCode },
                      { title: '发票号码', render: (_, r) => r.item.invoiceNo },
                      { title: '金额', align: 'right', render: (_, r) => formatMoneyText(r.item.amount) },
                      {
                        title: '校验结果',
                        render: (_, r) =>
                          r.errors.length ? (
                            <span style={{ color: '#ff4d4f' }}>{r.errors.join('；')}</span>
                          ) : (
                            <Tag color="success">通过</Tag>
                          ),
                      },
                    ]}
                  />
                </Modal>
              </>
            ),
          },
          {
            key: 'files',
            label: '授信文件',
            children: needSave ?? (
              <>
                <FileList
                  value={files}
                  onChange={setFiles}
                  readOnly={!editable}
                  onUploadingChange={fileUploads.onUploadingChange}
                />
                <Button
                  type="primary"
                  style={{ marginTop: 12 }}
                  disabled={!editable}
                  onClick={() =>
                    fileUploads.settled() &&
                    void saveSection(CREDIT_PATHS.saveCredFile, '授信文件', {
                      fileTokens: files.map((f) => f.fileToken),
                    })
                  }
                >
                  保存
                </Button>
              </>
            ),
          },
        ]}
      />
    </EditorFrame>
  );
}
