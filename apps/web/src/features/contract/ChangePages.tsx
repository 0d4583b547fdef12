import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Col, Form, Input, Row, Select, Table, Tabs, Typography } from 'antd';
import {
  CONTRACT_PATHS,
  type ChangeListRow,
  type PayerItem,
  changeInfoSchema,
  changeSaveSchema,
  payerSchema,
} from '@portal/contract/contract';
import { accountLabel } from '@portal/contract/bank';
import { formatMoney } from '@portal/contract/format';
import { DateInput } from '../../shared/form/DateInput';
import { ListEditor } from '../../shared/form/ListEditor';
import { MoneyInput } from '../../shared/form/MoneyInput';
import { fieldRules } from '../../shared/form/zod-rule';
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { docStateColumn, useDocActionsColumn } from '../../shared/workflow/doc-columns';
import { ContractDocFilters } from '../../shared/workflow/doc-filters';
import { docFrameProps, useDocCode, useDocSaved } from '../../shared/workflow/doc-kind';
import { DocViewFrame } from '../../shared/workflow/DocViewFrame';
import { CHANGE_DOC } from './doc-kinds';
import { CONTRACT_ROUTES, contractApi, contractQueries, type Saved } from './api';
import { DuesTable, PayersTable, PlanTable } from './components';
import { validValues } from '../../shared/ui/valid-values';
import { usePageFormName } from '../../shared/form/form-name';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { SaveButtons } from '../../shared/editor/SaveButtons';
import { useFormFill } from '../../shared/editor/use-form-fill';

const changeRules = fieldRules(changeSaveSchema);
const infoRules = fieldRules(changeInfoSchema);
const payerRules = fieldRules(payerSchema);

/** 合同变更 list. */
export function ChangeListPage() {
  const actions = useDocActionsColumn<ChangeListRow>(CHANGE_DOC, {
    code: (r) => r.bizCode,
    remove: (code) => contractApi.remove(CONTRACT_PATHS.changeDelete, code, '合同变更'),
  });
  return (
    <div data-testid="change-list">
      <ListPage<ChangeListRow>
        source={CONTRACT_PATHS.changeList}
        rowKey="bizCode"
        filters={<ContractDocFilters />}
        columns={[
          codeColumn('变更编号', 'bizCode'),
          codeColumn('合同编号', 'contBizCode'),
          { title: '合同号', dataIndex: 'contractNo', key: 'contractNo' },
          { title: '客户名称', dataIndex: 'custName', key: 'custName' },
          { title: '变更原因', dataIndex: 'reason', key: 'reason' },
          docStateColumn<ChangeListRow>(),
          dateColumn('更新时间', 'updatedAt', { withTime: true }),
          actions,
        ]}
      />
    </div>
  );
}

type Values = Record<string, unknown>;
const INFO_FIELDS = [
  ['financingAmount', '融资金额'],
  ['financingRatio', '融资比例'],
  ['maturityDate', '到期日'],
  ['lineCode', '占用额度'],
  ['ruleBizCode', '计息规则'],
  ['bankBizCode', '还款账户'],
  ['remark', '备注'],
] as const;

/** 合同变更编辑: the proposed values beside the current ones; only what differs is proposed. */
export function ChangeEditorPage() {
  const [params] = useSearchParams();
  const bizCode = params.get('bizCode') ?? '';
  const [form] = Form.useForm<Values>();
  const formName = usePageFormName('change');
  const change = useQuery(contractQueries.change(bizCode));
  const contBizCode = params.get('contBizCode') ?? change.data?.contBizCode ?? '';
  const info = useQuery(contractQueries.info(contBizCode));
  const rules = useQuery(contractQueries.rules());
  const banks = useQuery(contractQueries.banks());
  const lines = useQuery(contractQueries.lines(info.data?.custCode));
  const [version, setVersion] = useState<number | undefined>();

  const loaded = useMemo(
    () => (info.data ? { c: info.data, change: change.data } : undefined),
    [info.data, change.data],
  );
  useFormFill({ data: loaded, isLoading: info.isLoading || change.isLoading }, ({ c, change: ch }) => {
    const p = ch?.proposal;
    form.setFieldsValue({
      ...Object.fromEntries(INFO_FIELDS.map(([k]) => [k, p?.info[k] ?? c[k] ?? undefined])),
      reason: p?.reason,
      effectiveDate: p?.effectiveDate,
      payers: p?.payers ?? c.payers,
    });
    if (ch) setVersion(ch.version);
  });

  const saved = useDocSaved(CHANGE_DOC, bizCode);
  const save = async (submit: boolean) => {
    const c = info.data;
    if (!c) return;
    const values = await validValues(form);
    if (!values) return;
    const proposedInfo = Object.fromEntries(
      INFO_FIELDS.filter(
        ([k]) => values[k] !== undefined && values[k] !== '' && values[k] !== (c[k] ?? undefined),
      ).map(([k]) => [k, values[k]]),
    );
    const payers = (values.payers as PayerItem[] | undefined) ?? [];
    const payersChanged = JSON.stringify(payers) !== JSON.stringify(c.payers);
    const body = {
      ...(bizCode ? { bizCode, version } : {}),
      contBizCode,
      reason: values.reason,
      ...(values.effectiveDate ? { effectiveDate: values.effectiveDate } : {}),
      info: proposedInfo,
      ...(payersChanged ? { payers } : {}),
      submit,
    };
    const r = await contractApi
      .save<Saved>(CONTRACT_PATHS.changeSave, body, submit ? '合同变更并提交审批' : '合同变更')
      .catch(() => null);
    if (!r?.ok || !r.data) return;
    setVersion(r.data.version);
    saved(r.data.bizCode, submit);
  };

  const c = info.data;
  const current = (k: (typeof INFO_FIELDS)[number][0]) => {
    if (!c) return '';
    if (k === 'financingAmount') return formatMoney(c.financingAmount);
    if (k === 'ruleBizCode') return c.ruleName ?? c.ruleBizCode;
    if (k === 'bankBizCode') return `${c.bankName ?? ''} ${c.bankAccountNo ?? ''}`;
    return String(c[k] ?? '—');
  };
  const input = (k: (typeof INFO_FIELDS)[number][0], label: string) => {
    if (k === 'ruleBizCode')
      return (
        <Select
          aria-label={`变更后${label}`}
          options={(rules.data ?? []).map((r) => ({ value: r.code, label: r.label }))}
        />
      );
    if (k === 'bankBizCode')
      return (
        <Select
          aria-label={`变更后${label}`}
          // Bank, number and purpose, like every account picker (the server offers no 付款账户).
          options={(banks.data ?? []).map((b) => ({ value: b.bizCode, label: accountLabel(b) }))}
        />
      );
    if (k === 'lineCode')
      return (
        <Select
          aria-label={`变更后${label}`}
          options={(lines.data ?? []).map((l) => ({
            value: l.lineCode,
            label: `${l.lineCode}（可用 ${formatMoney(l.availableAmount)}）`,
          }))}
        />
      );
    if (k === 'financingAmount') return <MoneyInput aria-label={`变更后${label}`} />;
    if (k === 'maturityDate') return <DateInput aria-label={`变更后${label}`} />;
    return <Input aria-label={`变更后${label}`} />;
  };

  return (
    <EditorFrame
      testId="change-editor"
      title={`${bizCode ? `合同变更编辑 ${bizCode}` : '新增合同变更'}${c ? ` — ${c.contractNo} ${c.custName}` : ''}`}
      backTo={CONTRACT_ROUTES.chgList}
      doc={bizCode ? { docType: CHANGE_DOC.docType, docCode: bizCode } : undefined}
    >
      {!contBizCode ? <Alert type="info" showIcon message="请从合同列表的「合同变更」进入" /> : null}
      <Form form={form} name={formName} layout="horizontal" labelCol={{ span: 4 }}>
        <Form.Item name="reason" label="变更原因" rules={changeRules.reason}>
          <Input.TextArea rows={2} aria-label="变更原因" />
        </Form.Item>
        <Form.Item name="effectiveDate" label="变更生效日" rules={changeRules.effectiveDate}>
          <DateInput aria-label="变更生效日" placeholder="默认营业日" style={{ width: 200 }} />
        </Form.Item>
        <Row gutter={8} style={{ fontWeight: 600, marginBottom: 8 }}>
          <Col span={4} />
          <Col span={8}>变更前</Col>
          <Col span={12}>变更后</Col>
        </Row>
        {INFO_FIELDS.map(([k, label]) => (
          <Row gutter={8} key={k} align="middle">
            <Col span={4} style={{ textAlign: 'right' }}>
              {label}：
            </Col>
            <Col span={8} data-testid={`before-${k}`}>
              {current(k)}
            </Col>
            <Col span={12}>
              <Form.Item name={k} rules={infoRules[k]} style={{ marginBottom: 8 }}>
                {input(k, label)}
              </Form.Item>
            </Col>
          </Row>
        ))}
        <Typography.Title level={5}>付款方</Typography.Title>
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
        <div style={{ marginTop: 16 }}>
          <SaveButtons save={save} disabled={!c} testIds={{ submit: 'change-submit' }} />
        </div>
      </Form>
    </EditorFrame>
  );
}

const INFO_LABELS: Record<string, string> = Object.fromEntries(INFO_FIELDS);

/** One section's before and after, side by side, changed values marked. */
function InfoCompare({
  before,
  after,
  changed,
}: {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  changed: string[];
}) {
  const rows = INFO_FIELDS.map(([k]) => ({
    k,
    before: before[k],
    after: after[k],
    changed: changed.includes(k),
  }));
  // Codes are shown by their names (the server sends them beside the codes).
  const NAME_OF: Record<string, string> = {
    ruleBizCode: 'ruleName',
    bankBizCode: 'bankName',
    lineCode: 'lineName',
  };
  const show = (k: string, v: unknown, rec: Record<string, unknown>) => {
    if (v === null || v === undefined || v === '') return '—';
    if (k === 'financingAmount') return formatMoney(String(v));
    const name = NAME_OF[k] ? rec[NAME_OF[k]] : undefined;
    return typeof name === 'string' && name ? name : String(v);
  };
  return (
    <Table
      size="small"
      rowKey="k"
      pagination={false}
      dataSource={rows}
      data-testid="compare-info"
      rowClassName={(r) => (r.changed ? 'contract-changed-row' : '')}
      columns={[
        { title: '项目', key: 'k', render: (_: unknown, r) => INFO_LABELS[r.k] },
        { title: '变更前', key: 'before', render: (_: unknown, r) => show(r.k, r.before, before) },
        {
          title: '变更后',
          key: 'after',
          render: (_: unknown, r) =>
            r.changed ? (
              <Typography.Text type="danger" strong data-testid={`changed-${r.k}`}>
                {show(r.k, r.after, after)}
              </Typography.Text>
            ) : (
              show(r.k, r.after, after)
            ),
        },
      ]}
    />
  );
}

/** 合同变更查看: 变更信息 (before / after of every section) inside the audit view. */
export function ChangeViewPage() {
  const bizCode = useDocCode(CHANGE_DOC);
  const change = useQuery(contractQueries.change(bizCode));
  const state = change.data?.state;
  const info = useQuery(contractQueries.changeInfo(bizCode, state));
  const plan = useQuery(contractQueries.changePlan(bizCode, state));
  const dues = useQuery(contractQueries.changeDues(bizCode, state));
  const payers = useQuery(contractQueries.changePayers(bizCode, state));
  const ch = change.data;
  const side = <T,>(
    label: string,
    data: { before: T; after: T; changed: string[] } | undefined,
    render: (v: T) => React.ReactNode,
  ) =>
    data ? (
      <>
        {data.changed.length === 0 ? <Typography.Text type="secondary">{label}未变更</Typography.Text> : null}
        {/* One above the other: a plan has too many columns for half a card. */}
        <Row gutter={[16, 16]}>
          <Col span={24} data-testid={`before-${label}`}>
            <Typography.Title level={5}>变更前</Typography.Title>
            {render(data.before)}
          </Col>
          <Col span={24} data-testid={`after-${label}`}>
            <Typography.Title level={5}>变更后</Typography.Title>
            {render(data.after)}
          </Col>
        </Row>
      </>
    ) : null;
  return (
    <DocViewFrame
      testId="change-view"
      title="合同变更查看"
      state={ch?.state}
      tags={ch ? <span>{`${ch.contractNo} ${ch.custName}`}</span> : null}
      {...docFrameProps(CHANGE_DOC, bizCode)}
    >
      {ch ? (
        <Typography.Paragraph>
          变更原因：{ch.reason}，生效日：{ch.effectiveDate ?? '审核通过当日'}
        </Typography.Paragraph>
      ) : null}
      <Tabs
        items={[
          {
            key: 'after',
            label: '变更信息',
            children: info.data ? <InfoCompare {...info.data} /> : null,
          },
          {
            key: 'plan',
            label: '还款计划',
            children: side('还款计划', plan.data, (items) => <PlanTable items={items} />),
          },
          {
            key: 'dues',
            label: '应收费用',
            children: side('应收费用', dues.data, (rows) => <DuesTable rows={rows} />),
          },
          {
            key: 'payers',
            label: '付款方信息',
            children: side('付款方', payers.data, (rows) => <PayersTable rows={rows} />),
          },
        ]}
      />
    </DocViewFrame>
  );
}
