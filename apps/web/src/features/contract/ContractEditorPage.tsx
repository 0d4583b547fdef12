import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Select, Space, Table, Tabs, Typography, Upload } from 'antd';
import { MinusCircleOutlined, UploadOutlined } from '@ant-design/icons';
import {
  CONTRACT_PATHS,
  DISCLOSURE_LABELS,
  DUE_KIND_LABELS,
  type ContractReceivable,
  type CustomPlanRow,
  type DueItem,
  type ImportPreview,
  type PlanPreview,
  businessInfoSchema,
  contractReceivableSchema,
  infoSaveSchema,
  payerSchema,
} from '@portal/contract/contract';
import { PRODUCT_LABELS, RECOURSE_LABELS } from '@portal/contract/credit';
import { formatMoney } from '@portal/contract/format';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { FileList } from '../../shared/files/FileList';
import { DateInput } from '../../shared/form/DateInput';
import { ListEditor } from '../../shared/form/ListEditor';
import { MoneyInput } from '../../shared/form/MoneyInput';
import { fieldRules, formRules } from '../../shared/form/zod-rule';
import type { FileItem } from '../../shared/files/files-api';
import { PlanChart } from '../../shared/plan/PlanChart';
import { CONTRACT_ROUTES, contractApi, importContractReceivables, importPlanExcel, type Saved } from './api';
import { PayersTable, PlanTable, sumOf } from './components';
import { ContractStateTags, options } from './state-tags';
import { validValues } from '../../shared/ui/valid-values';

const infoRules = formRules(infoSaveSchema);
const receivableRules = fieldRules(contractReceivableSchema);
const payerRules = fieldRules(payerSchema);
const businessRules = fieldRules(businessInfoSchema);
type Values = Record<string, unknown>;
type Row = Partial<Record<string, string>>;

/** Drops the blank optional cells of a list row (the server treats them as absent). */
function clean<T extends Row>(rows: readonly T[] | undefined): T[] {
  return (rows ?? []).map(
    (r) =>
      Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined && v !== null && v !== '')) as T,
  );
}

/** 合同编辑: 基本信息 first; the other sections save with the contract's version once it exists. */
export default function ContractEditorPage() {
  const [params] = useSearchParams();
  const bizCode = params.get('bizCode') ?? '';
  const fromCredit = params.get('platCredBizCode') ?? '';
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [version, setVersion] = useState<number | undefined>();
  const [tab, setTab] = useState('info');
  const [infoForm] = Form.useForm<Values>();
  const [bizForm] = Form.useForm<Values>();
  const [dues, setDues] = useState<DueItem[]>([]);
  const [files, setFiles] = useState<FileItem[]>([]);
  const [preview, setPreview] = useState<PlanPreview | null>(null);
  const [customRows, setCustomRows] = useState<CustomPlanRow[] | null>(null);
  const [recPreview, setRecPreview] = useState<ImportPreview<ContractReceivable> | null>(null);
  const [planPreview, setPlanPreview] = useState<ImportPreview<CustomPlanRow> | null>(null);
  const credBizCode = Form.useWatch('platCredBizCode', infoForm) as string | undefined;

  const info = useQuery({
    queryKey: ['contract', 'info', bizCode],
    queryFn: () => contractApi.info(bizCode),
    enabled: !!bizCode,
  });
  const scheme = useQuery({
    queryKey: ['contract', 'scheme', bizCode],
    queryFn: () => contractApi.scheme(bizCode),
    enabled: !!bizCode,
  });
  const dueQuery = useQuery({
    queryKey: ['contract', 'dues', bizCode],
    queryFn: () => contractApi.dues(bizCode),
    enabled: !!bizCode,
  });
  const business = useQuery({
    queryKey: ['contract', 'business', bizCode],
    queryFn: () => contractApi.business(bizCode),
    enabled: !!bizCode,
  });
  const fileQuery = useQuery({
    queryKey: ['contract', 'files', bizCode],
    queryFn: () => contractApi.files(bizCode),
    enabled: !!bizCode,
  });
  const history = useQuery({
    queryKey: ['contract', 'fileHistory', business.data?.contractdetailCode],
    queryFn: () => contractApi.fileHistory(business.data!.contractdetailCode!),
    enabled: !!business.data?.contractdetailCode,
  });
  const credits = useQuery({ queryKey: ['contract', 'customers'], queryFn: contractApi.customers });
  const init = useQuery({
    queryKey: ['contract', 'init', credBizCode],
    queryFn: () => contractApi.init(credBizCode!),
    enabled: !!credBizCode,
  });
  const rules = useQuery({ queryKey: ['contract', 'rules'], queryFn: contractApi.rules });
  const banks = useQuery({ queryKey: ['contract', 'banks'], queryFn: contractApi.banks });
  const members = useQuery({ queryKey: ['contract', 'members'], queryFn: contractApi.members });

  useEffect(() => {
    if (!info.data) return;
    setVersion(info.data.version);
    infoForm.setFieldsValue({
      ...info.data,
      managerId: info.data.managerId ?? undefined,
      remark: info.data.remark ?? undefined,
    });
  }, [info.data, infoForm]);
  useEffect(() => {
    if (!bizCode && fromCredit) infoForm.setFieldsValue({ platCredBizCode: fromCredit });
  }, [bizCode, fromCredit, infoForm]);
  // A credit picked: its customer, its product and (for a new contract) its free receivables.
  useEffect(() => {
    const d = init.data;
    if (!d) return;
    infoForm.setFieldsValue({ custCode: d.custCode, custName: d.custName });
    if (!bizCode) {
      infoForm.setFieldsValue({ product: d.product, recourse: d.recourse ?? 'with' });
      if (!(infoForm.getFieldValue('receivables') as unknown[] | undefined)?.length)
        infoForm.setFieldsValue({ receivables: d.receivables });
    }
  }, [init.data, bizCode, infoForm]);
  useEffect(() => {
    if (dueQuery.data)
      setDues(
        dueQuery.data.map((d) => ({
          kind: d.kind,
          amount: d.amount,
          dueDate: d.dueDate,
          remark: d.remark ?? undefined,
        })),
      );
  }, [dueQuery.data]);
  useEffect(() => void (fileQuery.data && setFiles(fileQuery.data)), [fileQuery.data]);
  useEffect(() => {
    if (!business.data) return;
    bizForm.setFieldsValue({ ...business.data, settlementDays: business.data.settlementDays ?? undefined });
  }, [business.data, bizForm]);

  const editable = !bizCode || info.data?.state === 'draft' || info.data?.state === 'rejected';
  const method = scheme.data?.method ?? null;
  const after = (r: { ok: boolean; data: { version: number } | undefined }) => {
    if (!r.ok || !r.data) return false;
    setVersion(r.data.version);
    void qc.invalidateQueries({ queryKey: ['contract'] });
    return true;
  };

  const saveInfo = async (submit: boolean) => {
    const values = await validValues(infoForm);
    if (!values) return;
    const { custName: _n, ...rest } = values;
    const body = {
      ...rest,
      receivables: clean(values.receivables as Row[]),
      payers: clean(values.payers as Row[]),
      ...(bizCode ? { bizCode, version } : {}),
      submit,
    };
    const r = await contractApi
      .save<Saved>(CONTRACT_PATHS.infoSave, body, submit ? '合同并提交审批' : '合同基本信息')
      .catch(() => null);
    if (!r || !after(r)) return;
    if (submit) void navigate(`${CONTRACT_ROUTES.view}?bizCode=${r.data!.bizCode}`);
    else if (!bizCode)
      void navigate(`${CONTRACT_ROUTES.editor}?bizCode=${r.data!.bizCode}`, { replace: true });
  };

  const generate = async () => {
    const p = await contractApi
      .planAdd({ contBizCode: bizCode, ...(customRows ? { customItems: customRows } : {}) })
      .catch(() => null);
    if (p) setPreview(p);
  };
  const saveScheme = async () => {
    const r = await contractApi
      .save<{ version: number }>(
        CONTRACT_PATHS.schemeSave,
        { contBizCode: bizCode, version, ...(customRows ? { customItems: customRows } : {}) },
        '还款计划',
      )
      .catch(() => null);
    if (r && after(r)) setPreview(null);
  };
  const saveDues = async () => {
    const items = dues.map((d) => ({
      kind: d.kind,
      amount: d.amount,
      dueDate: d.dueDate,
      ...(d.remark ? { remark: d.remark } : {}),
    }));
    const r = await contractApi
      .save<{ version: number }>(CONTRACT_PATHS.dueSave, { contBizCode: bizCode, version, items }, '应收费用')
      .catch(() => null);
    if (r) after(r);
  };
  const suggest = async () => {
    const s = await contractApi.suggestDues(bizCode).catch(() => null);
    if (s) setDues(s);
  };
  const saveBusiness = async () => {
    const values = await validValues(bizForm);
    if (!values) return;
    const { contractdetailCode: _c, fileTokens: _f, ...rest } = values;
    const r = await contractApi
      .save<{ version: number }>(
        CONTRACT_PATHS.businessSave,
        {
          ...Object.fromEntries(
            Object.entries(rest).filter(([, v]) => v !== undefined && v !== null && v !== ''),
          ),
          contBizCode: bizCode,
          version,
          fileTokens: ((values.files as FileItem[] | undefined) ?? []).map((f) => f.fileToken),
        },
        '业务信息',
      )
      .catch(() => null);
    if (r) after(r);
  };
  const saveFiles = async () => {
    const r = await contractApi
      .save<{ version: number }>(
        CONTRACT_PATHS.fileSave,
        { contBizCode: bizCode, version, fileTokens: files.map((f) => f.fileToken) },
        '附件',
      )
      .catch(() => null);
    if (r) after(r);
  };

  const bizFiles = useMemo(() => {
    const tokens = new Set(business.data?.fileTokens ?? []);
    return (history.data ?? []).filter((h) => tokens.has(h.fileToken));
  }, [business.data, history.data]);
  useEffect(() => bizForm.setFieldsValue({ files: bizFiles }), [bizFiles, bizForm]);

  const lines = init.data?.lines ?? [];
  const needSave = !bizCode ? <Alert type="info" showIcon message="请先保存合同基本信息" /> : null;

  const infoTab = (
    <Form
      form={infoForm}
      layout="vertical"
      disabled={!editable}
      initialValues={{
        disclosure: 'disclosed',
        recourse: 'with',
        product: 'factoring',
        currency: 'CNY',
        financingRatio: '0.8',
        payers: [{}],
      }}
      data-testid="contract-info-form"
    >
      <Space wrap align="start">
        <Form.Item
          name="platCredBizCode"
          label="平台授信"
          rules={infoRules.platCredBizCode}
          style={{ minWidth: 320 }}
        >
          <Select
            showSearch
            aria-label="平台授信"
            optionFilterProp="label"
            options={(credits.data ?? []).map((c) => ({
              value: c.credBizCode,
              label: `${c.custName}（授信 ${c.credBizCode}，至 ${c.endDate}）`,
            }))}
          />
        </Form.Item>
        <Form.Item name="custCode" hidden>
          <Input />
        </Form.Item>
        <Form.Item name="custName" label="客户">
          <Input disabled style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="lineCode" label="占用额度" rules={infoRules.lineCode} style={{ minWidth: 360 }}>
          <Select
            aria-label="占用额度"
            options={lines.map((l) => ({
              value: l.lineCode,
              label: `${l.debtorName ?? l.custName} ${l.lineCode}（可用 ${formatMoney(l.availableAmount)}）`,
            }))}
          />
        </Form.Item>
      </Space>
      <Space wrap align="start">
        <Form.Item name="contractNo" label="合同号" rules={infoRules.contractNo}>
          <Input aria-label="合同号" />
        </Form.Item>
        <Form.Item name="recourse" label="追索类型">
          <Select style={{ width: 120 }} options={options(RECOURSE_LABELS)} />
        </Form.Item>
        <Form.Item name="disclosure" label="公开类型">
          <Select style={{ width: 120 }} options={options(DISCLOSURE_LABELS)} />
        </Form.Item>
        <Form.Item name="product" label="产品">
          <Select style={{ width: 140 }} options={options(PRODUCT_LABELS)} />
        </Form.Item>
      </Space>
      <Space wrap align="start">
        <Form.Item name="financingRatio" label="融资比例" rules={infoRules.financingRatio}>
          <Input aria-label="融资比例" placeholder="0.8" style={{ width: 100 }} />
        </Form.Item>
        <Form.Item name="financingAmount" label="融资金额" rules={infoRules.financingAmount}>
          <MoneyInput aria-label="融资金额" />
        </Form.Item>
        <Form.Item name="marginRatio" label="保证金比例" rules={infoRules.marginRatio}>
          <Input aria-label="保证金比例" placeholder="0.1" style={{ width: 100 }} />
        </Form.Item>
        <Form.Item name="startDate" label="起始日" rules={infoRules.startDate}>
          <DateInput aria-label="起始日" />
        </Form.Item>
        <Form.Item name="maturityDate" label="到期日" rules={infoRules.maturityDate}>
          <DateInput aria-label="到期日" />
        </Form.Item>
      </Space>
      <Space wrap align="start">
        <Form.Item
          name="ruleBizCode"
          label="计息规则"
          rules={infoRules.ruleBizCode}
          style={{ minWidth: 260 }}
        >
          <Select
            aria-label="计息规则"
            options={(rules.data ?? []).map((r) => ({ value: r.code, label: r.label }))}
          />
        </Form.Item>
        <Form.Item
          name="bankBizCode"
          label="还款账户"
          rules={infoRules.bankBizCode}
          style={{ minWidth: 300 }}
        >
          <Select
            aria-label="还款账户"
            options={(banks.data ?? []).map((b) => ({
              value: b.bizCode,
              label: `${b.accountName} ${b.bankName} ${b.accountNo}`,
            }))}
          />
        </Form.Item>
        <Form.Item name="managerId" label="业务经理" rules={infoRules.managerId} style={{ minWidth: 200 }}>
          <Select
            allowClear
            options={(members.data ?? []).map((m) => ({
              value: m.userId,
              label: `${m.name}${m.deptName ? `（${m.deptName}）` : ''}`,
            }))}
          />
        </Form.Item>
      </Space>
      <Typography.Title level={5}>应收账款</Typography.Title>
      <Upload
        accept=".xlsx"
        showUploadList={false}
        beforeUpload={(f) => {
          void importContractReceivables(f, credBizCode).then(setRecPreview, () => undefined);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} style={{ marginBottom: 8 }}>
          导入应收账款
        </Button>
      </Upload>
      <ListEditor
        name="receivables"
        testId="receivables-editor"
        addText="添加应收账款"
        removeLabel="删除应收账款"
        columns={[
          { name: 'invoiceCode', title: '发票代码', width: 140, input: <Input aria-label="发票代码" /> },
          { name: 'invoiceNo', title: '发票号码', width: 110, input: <Input aria-label="发票号码" /> },
          { name: 'invoiceDate', title: '开票日期', width: 140, input: <DateInput aria-label="开票日期" /> },
          { name: 'amount', title: '发票金额', width: 150, input: <MoneyInput aria-label="发票金额" /> },
          { name: 'debtorName', title: '债务人名称', width: 180, input: <Input aria-label="债务人名称" /> },
          { name: 'dueDate', title: '到期日', width: 140, input: <DateInput aria-label="到期日" /> },
        ].map((c) => ({ ...c, rules: receivableRules[c.name as keyof typeof receivableRules] }))}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        付款方
      </Typography.Title>
      <ListEditor
        name="payers"
        testId="payers-editor"
        addText="添加付款方"
        removeLabel="删除付款方"
        columns={[
          {
            name: 'payerName',
            title: '付款方名称',
            width: 220,
            rules: payerRules.payerName,
            input: <Input aria-label="付款方名称" />,
          },
          {
            name: 'accountName',
            title: '户名',
            width: 180,
            rules: payerRules.accountName,
            input: <Input aria-label="户名" />,
          },
          {
            name: 'accountNo',
            title: '账号',
            width: 200,
            rules: payerRules.accountNo,
            input: <Input aria-label="账号" />,
          },
          {
            name: 'bankName',
            title: '开户行',
            width: 180,
            rules: payerRules.bankName,
            input: <Input aria-label="开户行" />,
          },
        ]}
      />
      <Form.Item name="remark" label="备注" rules={infoRules.remark} style={{ marginTop: 16 }}>
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
      <Space>
        <Button type="primary" onClick={() => void saveInfo(false)} data-testid="save-info">
          保存
        </Button>
        {bizCode ? (
          <Button onClick={() => void saveInfo(true)} data-testid="submit-info">
            保存并提交
          </Button>
        ) : null}
      </Space>
    </Form>
  );

  const schemeTab = needSave ?? (
    <div data-testid="scheme-tab">
      <Space style={{ marginBottom: 12 }} wrap>
        <Button onClick={() => void generate()} disabled={!editable} data-testid="plan-generate">
          生成还款计划
        </Button>
        {method === 'CUSTOM' || customRows ? (
          <Upload
            accept=".xlsx"
            showUploadList={false}
            beforeUpload={(f) => {
              void importPlanExcel(f, {
                financingAmount: info.data?.financingAmount,
                startDate: info.data?.startDate,
              }).then(setPlanPreview, () => undefined);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} disabled={!editable}>
              导入自定义还款计划
            </Button>
          </Upload>
        ) : null}
        {preview ? (
          <Button
            type="primary"
            onClick={() => void saveScheme()}
            disabled={!editable}
            data-testid="plan-save"
          >
            保存还款计划
          </Button>
        ) : null}
        <Typography.Text type="secondary">
          {scheme.data?.ruleName ? `计息规则：${scheme.data.ruleName}` : ''}
        </Typography.Text>
      </Space>
      {preview ? (
        <>
          <Alert type="info" showIcon message="预览：保存后生效" style={{ marginBottom: 8 }} />
          <PlanTable items={preview.items} testId="plan-preview" />
          <PlanChart items={preview.items} height={260} />
        </>
      ) : (scheme.data?.items.length ?? 0) > 0 ? (
        <>
          <PlanTable items={scheme.data!.items} />
          <PlanChart items={scheme.data!.items} height={260} />
        </>
      ) : (
        <Alert type="warning" showIcon message="尚未生成还款计划" />
      )}
    </div>
  );

  const duesTab = needSave ?? (
    <div data-testid="dues-tab">
      <Space style={{ marginBottom: 12 }}>
        <Button onClick={() => void suggest()} disabled={!editable}>
          按规则生成
        </Button>
        <Button
          onClick={() =>
            setDues((d) => [
              ...d,
              { kind: 'serviceFee', amount: '0.00', dueDate: info.data?.startDate ?? '' },
            ])
          }
          disabled={!editable}
        >
          添加
        </Button>
        <Button type="primary" onClick={() => void saveDues()} disabled={!editable}>
          保存
        </Button>
      </Space>
      <Table<DueItem>
        size="small"
        rowKey={(_, i) => String(i)}
        pagination={false}
        dataSource={dues}
        columns={[
          {
            title: '费用类型',
            key: 'kind',
            render: (_: unknown, r, i) => (
              <Select
                value={r.kind}
                disabled={!editable}
                style={{ width: 140 }}
                options={options(DUE_KIND_LABELS)}
                onChange={(kind) => setDues((d) => d.map((x, j) => (j === i ? { ...x, kind } : x)))}
              />
            ),
          },
          {
            title: '金额',
            key: 'amount',
            render: (_: unknown, r, i) => (
              <MoneyInput
                aria-label="费用金额"
                value={r.amount}
                disabled={!editable}
                onChange={(amount) =>
                  setDues((d) => d.map((x, j) => (j === i ? { ...x, amount: amount ?? '' } : x)))
                }
              />
            ),
          },
          {
            title: '应收日期',
            key: 'dueDate',
            render: (_: unknown, r, i) => (
              <DateInput
                aria-label="应收日期"
                value={r.dueDate}
                disabled={!editable}
                onChange={(dueDate) =>
                  setDues((d) => d.map((x, j) => (j === i ? { ...x, dueDate: dueDate ?? '' } : x)))
                }
              />
            ),
          },
          {
            title: '',
            key: 'remove',
            render: (_: unknown, _r, i) =>
              editable ? (
                <MinusCircleOutlined
                  aria-label="删除费用"
                  onClick={() => setDues((d) => d.filter((_x, j) => j !== i))}
                />
              ) : null,
          },
        ]}
        summary={(rows) => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
            <Table.Summary.Cell index={1}>
              {formatMoney(sumOf(rows, (r) => (/^\d+(\.\d{1,2})?$/.test(r.amount) ? r.amount : '0')))}
            </Table.Summary.Cell>
          </Table.Summary.Row>
        )}
      />
    </div>
  );

  const businessTab = needSave ?? (
    <Form
      form={bizForm}
      layout="vertical"
      disabled={!editable}
      style={{ maxWidth: 760 }}
      data-testid="business-tab"
    >
      <Space wrap>
        <Form.Item name="tradeContractNo" label="贸易合同号" rules={businessRules.tradeContractNo}>
          <Input aria-label="贸易合同号" />
        </Form.Item>
        <Form.Item name="goodsName" label="货物名称" rules={businessRules.goodsName}>
          <Input aria-label="货物名称" />
        </Form.Item>
        <Form.Item name="tradeAmount" label="贸易合同金额" rules={businessRules.tradeAmount}>
          <MoneyInput aria-label="贸易合同金额" />
        </Form.Item>
        <Form.Item name="tradeDate" label="签订日" rules={businessRules.tradeDate}>
          <DateInput aria-label="签订日" />
        </Form.Item>
      </Space>
      <Form.Item name="remark" label="业务备注" rules={businessRules.remark}>
        <Input.TextArea rows={2} />
      </Form.Item>
      <Form.Item name="files" label="业务资料" valuePropName="value">
        <FileList />
      </Form.Item>
      <Button type="primary" onClick={() => void saveBusiness()}>
        保存
      </Button>
      {(history.data?.length ?? 0) > 0 ? (
        <div style={{ marginTop: 16 }}>
          <Typography.Text type="secondary">资料历史</Typography.Text>
          <ul data-testid="file-history">
            {history.data!.map((h) => (
              <li key={h.fileToken}>
                {h.originFileName} {h.removed ? '（已移除）' : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Form>
  );

  const filesTab = needSave ?? (
    <div data-testid="files-tab">
      <FileList value={files} onChange={setFiles} readOnly={!editable} />
      <Button type="primary" style={{ marginTop: 12 }} onClick={() => void saveFiles()} disabled={!editable}>
        保存
      </Button>
    </div>
  );

  return (
    <EditorFrame
      testId="contract-editor"
      title={bizCode ? `合同编辑 ${bizCode}` : '新增合同'}
      tags={info.data ? <ContractStateTags row={info.data} /> : null}
      backTo={CONTRACT_ROUTES.list}
      doc={bizCode ? { docType: 'contract', docCode: bizCode } : undefined}
    >
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'info', label: '基本信息', children: infoTab },
          { key: 'scheme', label: '方案/还款计划', children: schemeTab },
          { key: 'dues', label: '应收费用', children: duesTab },
          { key: 'business', label: '业务信息', children: businessTab },
          { key: 'files', label: '附件', children: filesTab },
          {
            key: 'payers',
            label: '付款方信息',
            children: needSave ?? <PayersTable rows={info.data?.payers ?? []} testId="payers-view" />,
          },
        ]}
      />
      <ImportPreviewModal
        title="应收账款导入预览"
        preview={recPreview}
        columns={['invoiceCode', 'invoiceNo', 'invoiceDate', 'amount', 'debtorName', 'dueDate']}
        onCancel={() => setRecPreview(null)}
        onOk={() => {
          const good = (recPreview?.rows ?? []).map((r) => r.item);
          infoForm.setFieldsValue({ receivables: good });
          setRecPreview(null);
        }}
      />
      <ImportPreviewModal
        title="还款计划导入预览"
        preview={planPreview}
        columns={['dueDate', 'principal']}
        onCancel={() => setPlanPreview(null)}
        onOk={() => {
          setCustomRows((planPreview?.rows ?? []).map((r) => r.item as CustomPlanRow));
          setPlanPreview(null);
        }}
      />
    </EditorFrame>
  );
}

const COLUMN_LABELS: Record<string, string> = {
  invoiceCode: '发票代码',
  invoiceNo: '发票号码',
  invoiceDate: '开票日期',
  amount: '金额',
  debtorName: '债务人',
  dueDate: '到期日',
  principal: '本金',
};

/** An import's rows with their errors; taking them over is possible only when no row has one. */
function ImportPreviewModal<T>({
  title,
  preview,
  columns,
  onOk,
  onCancel,
}: {
  title: string;
  preview: ImportPreview<T> | null;
  columns: string[];
  onOk: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal
      title={title}
      open={!!preview}
      width={960}
      onCancel={onCancel}
      onOk={onOk}
      okText="导入"
      okButtonProps={{ disabled: !preview?.ok }}
    >
      {preview && !preview.ok ? (
        <Alert
          type="error"
          showIcon
          message="存在错误的行，请修改文件后重新导入"
          style={{ marginBottom: 8 }}
        />
      ) : null}
      <Table<ImportPreview<T>['rows'][number]>
        size="small"
        rowKey="row"
        pagination={false}
        dataSource={preview?.rows ?? []}
        data-testid="import-preview"
        columns={[
          { title: '行', dataIndex: 'row', key: 'row', width: 48 },
          ...columns.map((c) => ({
            title: COLUMN_LABELS[c] ?? c,
            key: c,
            render: (_: unknown, r: ImportPreview<T>['rows'][number]) =>
              (r.item as Record<string, string | undefined>)[c] ?? '',
          })),
          {
            title: '错误',
            key: 'errors',
            render: (_: unknown, r: { errors: string[] }) => (
              <Typography.Text type="danger">{r.errors.join('；')}</Typography.Text>
            ),
          },
        ]}
      />
    </Modal>
  );
}
