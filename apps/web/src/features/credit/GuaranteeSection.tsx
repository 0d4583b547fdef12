import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Select, Table, Tag, Typography } from 'antd';
import {
  COLLATERAL_KIND_LABELS,
  CREDIT_PATHS,
  GUARANTEE_STATUS_LABELS,
  GUARANTEE_TYPE_LABELS,
  GUARANTOR_KIND_LABELS,
  collateralItemSchema,
  guaranteeItemSchema,
  releaseGuaranteeSchema,
  type CollateralRow,
  type GuaranteeRow,
  type GuaranteeStatus,
} from '@portal/contract/credit';
import { FileList } from '../../shared/files/FileList';
import { useUploadGuard } from '../../shared/files/upload-guard';
import type { FileItem } from '../../shared/files/files-api';
import { DateInput } from '../../shared/form/DateInput';
import { ListEditor } from '../../shared/form/ListEditor';
import { MoneyInput } from '../../shared/form/MoneyInput';
import { fieldRules } from '../../shared/form/zod-rule';
import { labelOptions } from '../../shared/form/label-options';
import { FillSection } from '../../shared/editor/fill-gate';
import { useFormFill } from '../../shared/editor/use-form-fill';
import { validValues } from '../../shared/ui/valid-values';
import { dateColumn, moneyColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import { update } from '../../shared/request/http';
import { creditKeys, creditQueries } from './api';

/**
 * 担保授信 (docs/credit.md "Guarantees and collateral"): the guarantors (enterprise, picked from
 * the customers where it is one, or person with 身份证号), their period and contract of guarantee,
 * and the collateral; the editor saves both lists at once, the view shows where each guarantee
 * stands on the business date and lets a holder of 审核 release one.
 */

const guaRules = fieldRules(guaranteeItemSchema);
const collRules = fieldRules(collateralItemSchema);
const releaseRules = fieldRules(releaseGuaranteeSchema);
type Values = Record<string, unknown>;

const STATUS_COLORS: Record<GuaranteeStatus, string> = {
  notStarted: 'default',
  inForce: 'success',
  expiring: 'warning',
  expired: 'error',
  released: 'default',
};

function useGuarantees(bizCode: string) {
  const gua = useQuery(creditQueries.guarantees(bizCode));
  const coll = useQuery(creditQueries.collaterals(bizCode));
  return { gua, coll };
}

interface GuaranteeEditorProps {
  bizCode: string;
  editable: boolean;
  formName: string;
  save: (body: Values) => Promise<void>;
}

/**
 * The 担保授信 tab of 授信编辑: both lists in one form, saved by `save` with the credit's version.
 * Its lists are asked for when the tab first shows: a section of its own, which takes no input
 * until they have arrived (a row added before would vanish under their first fill).
 */
export function GuaranteeEditor(props: GuaranteeEditorProps) {
  return (
    <FillSection>
      <GuaranteeForm {...props} />
    </FillSection>
  );
}

function GuaranteeForm(props: GuaranteeEditorProps) {
  const [form] = Form.useForm<Values>();
  const { gua, coll } = useGuarantees(props.bizCode);
  const uploads = useUploadGuard('担保合同');
  const customers = useQuery(creditQueries.customers());
  const options = (customers.data ?? []).map((c) => ({ value: c.code, label: c.label }));
  useFormFill(gua, (rows) =>
    form.setFieldsValue({
      items: rows.map((r) => ({ ...r, contractFile: r.contractFile ? [r.contractFile] : [] })),
    }),
  );
  useFormFill(coll, (rows) => form.setFieldsValue({ collaterals: rows }));

  const onSave = async () => {
    const v = await validValues(form);
    if (!v || !uploads.settled()) return;
    const items = ((form.getFieldValue('items') as Values[] | undefined) ?? []).map(
      ({
        id: _id,
        status: _s,
        daysLeft: _d,
        releasedOn: _r,
        releaseReason: _rr,
        contractFile,
        contractFileToken: _t,
        ...rest
      }) => ({
        ...rest,
        contractFileToken: (contractFile as FileItem[] | undefined)?.[0]?.fileToken,
      }),
    );
    const collaterals = ((form.getFieldValue('collaterals') as Values[] | undefined) ?? []).map(
      ({ id: _id, valuationAgeDays: _a, stale: _s, ...rest }) => rest,
    );
    await props.save({ items, collaterals });
  };

  const kindOf = (i: number) => form.getFieldValue(['items', i, 'guarantorKind']) as string | undefined;

  return (
    <Form form={form} name={`${props.formName}-gua`} disabled={!props.editable} data-testid="gua-editor">
      <Typography.Title level={5}>担保人</Typography.Title>
      <div style={{ overflowX: 'auto' }}>
        <ListEditor
          name="items"
          addText="添加担保"
          removeLabel="删除担保"
          newRow={{ guarantorKind: 'enterprise', guaranteeType: 'joint', contractFile: [] }}
          columns={[
            {
              name: 'guarantorKind',
              title: '担保人类型',
              width: 110,
              rules: guaRules.guarantorKind,
              input: <Select aria-label="担保人类型" options={labelOptions(GUARANTOR_KIND_LABELS)} />,
            },
            {
              name: 'guarantorCode',
              title: '企业客户 / 身份证号',
              width: 220,
              // An enterprise is picked from the customers (its name follows); a person gives an ID.
              cell: (i) => (
                <Form.Item noStyle shouldUpdate>
                  {() =>
                    kindOf(i) === 'person' ? (
                      <Form.Item name={[i, 'idNo']} rules={guaRules.idNo} style={{ marginBottom: 8 }}>
                        <Input aria-label="身份证号" maxLength={18} />
                      </Form.Item>
                    ) : (
                      <Form.Item
                        name={[i, 'guarantorCode']}
                        rules={guaRules.guarantorCode}
                        style={{ marginBottom: 8 }}
                      >
                        <Select
                          aria-label="企业担保人"
                          allowClear
                          showSearch
                          optionFilterProp="label"
                          placeholder="从企业客户中选择"
                          options={options}
                          onChange={(code: string | undefined) => {
                            const picked = options.find((o) => o.value === code);
                            if (picked) form.setFieldValue(['items', i, 'guarantorName'], picked.label);
                          }}
                        />
                      </Form.Item>
                    )
                  }
                </Form.Item>
              ),
            },
            {
              name: 'guarantorName',
              title: '担保人名称',
              width: 180,
              rules: guaRules.guarantorName,
              input: <Input aria-label="担保人名称" />,
            },
            {
              name: 'guaranteeType',
              title: '担保方式',
              width: 140,
              rules: guaRules.guaranteeType,
              input: <Select aria-label="担保方式" options={labelOptions(GUARANTEE_TYPE_LABELS)} />,
            },
            {
              name: 'amount',
              title: '担保金额',
              width: 160,
              rules: guaRules.amount,
              input: <MoneyInput aria-label="担保金额" />,
            },
            {
              name: 'startDate',
              title: '担保起始日',
              width: 150,
              rules: guaRules.startDate,
              input: <DateInput aria-label="担保起始日" />,
            },
            {
              name: 'endDate',
              title: '担保到期日',
              width: 150,
              rules: guaRules.endDate,
              input: <DateInput aria-label="担保到期日" />,
            },
            {
              name: 'contractFile',
              title: '担保合同',
              width: 220,
              cell: (i) => (
                <Form.Item name={[i, 'contractFile']} style={{ marginBottom: 8 }}>
                  <FileList
                    max={1}
                    readOnly={!props.editable}
                    onUploadingChange={uploads.onUploadingChange}
                  />
                </Form.Item>
              ),
            },
          ]}
        />
      </div>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        抵质押物
      </Typography.Title>
      <div style={{ overflowX: 'auto' }}>
        <ListEditor
          name="collaterals"
          addText="添加抵质押物"
          removeLabel="删除抵质押物"
          newRow={{ kind: 'realEstate' }}
          columns={[
            {
              name: 'kind',
              title: '抵质押物类型',
              width: 140,
              rules: collRules.kind,
              input: <Select aria-label="抵质押物类型" options={labelOptions(COLLATERAL_KIND_LABELS)} />,
            },
            {
              name: 'name',
              title: '名称',
              width: 180,
              rules: collRules.name,
              input: <Input aria-label="抵质押物名称" />,
            },
            {
              name: 'value',
              title: '评估价值',
              width: 170,
              rules: collRules.value,
              input: <MoneyInput aria-label="评估价值" />,
            },
            {
              name: 'valuationDate',
              title: '评估日期',
              width: 150,
              rules: collRules.valuationDate,
              input: <DateInput aria-label="评估日期" />,
            },
            {
              name: 'regNo',
              title: '登记编号',
              width: 240,
              rules: collRules.regNo,
              input: <Input aria-label="登记编号" />,
            },
          ]}
          extra={
            <Button type="primary" onClick={() => void onSave()}>
              保存
            </Button>
          }
        />
      </div>
    </Form>
  );
}

/** The 担保授信 tab of 授信查看: where each guarantee stands, the collateral, and 解除担保. */
export function GuaranteeView(props: { bizCode: string; state: string | undefined }) {
  const { gua, coll } = useGuarantees(props.bizCode);
  const qc = useQueryClient();
  const buttons = useButtons('ft-credit-info');
  const [releasing, setReleasing] = useState<GuaranteeRow | null>(null);
  const [form] = Form.useForm<{ reason: string }>();
  const canRelease = buttons.has('pass') && (props.state === 'pending' || props.state === 'approved');
  const expiring = (gua.data ?? []).filter((g) => g.status === 'expiring' || g.status === 'expired');
  const stale = (coll.data ?? []).filter((c) => c.stale);

  const release = async () => {
    const v = await validValues(form);
    if (!v || !releasing) return;
    const r = await update(
      CREDIT_PATHS.releaseGuarantee,
      { credBizCode: props.bizCode, guaranteeId: releasing.id, reason: v.reason },
      { confirm: `确定要解除「${releasing.guarantorName}」的担保吗？` },
    ).catch(() => null);
    if (r?.ok) {
      setReleasing(null);
      form.resetFields();
      void qc.invalidateQueries({ queryKey: creditKeys.all });
    }
  };

  return (
    <div data-testid="gua-view">
      {expiring.length || stale.length ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message="担保提醒"
          description={[
            ...expiring.map((g) =>
              g.status === 'expired'
                ? `担保人「${g.guarantorName}」的担保已于 ${g.endDate} 到期`
                : `担保人「${g.guarantorName}」的担保将于 ${g.endDate} 到期，还有${g.daysLeft}天`,
            ),
            ...stale.map(
              (c) =>
                `抵质押物（登记编号 ${c.regNo}）评估日期 ${c.valuationDate}，已${c.valuationAgeDays}天未重新评估`,
            ),
          ].join('\n')}
          data-testid="gua-alerts"
        />
      ) : null}
      <Table<GuaranteeRow>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={gua.data ?? []}
        columns={[
          { title: '担保人', dataIndex: 'guarantorName' },
          {
            title: '类型',
            dataIndex: 'guarantorKind',
            render: (v: keyof typeof GUARANTOR_KIND_LABELS) => GUARANTOR_KIND_LABELS[v],
          },
          { title: '身份证号', dataIndex: 'idNo' },
          {
            title: '担保方式',
            dataIndex: 'guaranteeType',
            render: (v: keyof typeof GUARANTEE_TYPE_LABELS) => GUARANTEE_TYPE_LABELS[v],
          },
          moneyColumn('担保金额', 'amount'),
          dateColumn('起始日', 'startDate'),
          dateColumn('到期日', 'endDate'),
          {
            title: '状态',
            dataIndex: 'status',
            render: (v: GuaranteeStatus, r) => (
              <Tag color={STATUS_COLORS[v]} title={r.releaseReason ?? undefined}>
                {GUARANTEE_STATUS_LABELS[v]}
              </Tag>
            ),
          },
          {
            title: '担保合同',
            render: (_, r) => (r.contractFile ? <FileList value={[r.contractFile]} readOnly /> : '-'),
          },
          ...(canRelease
            ? [
                {
                  title: '操作',
                  render: (_: unknown, r: GuaranteeRow) =>
                    r.status === 'released' ? null : (
                      <Button size="small" onClick={() => setReleasing(r)}>
                        解除担保
                      </Button>
                    ),
                },
              ]
            : []),
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        抵质押物
      </Typography.Title>
      <Table<CollateralRow>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={coll.data ?? []}
        data-testid="collateral-table"
        columns={[
          {
            title: '类型',
            dataIndex: 'kind',
            render: (v: keyof typeof COLLATERAL_KIND_LABELS) => COLLATERAL_KIND_LABELS[v],
          },
          { title: '名称', dataIndex: 'name' },
          moneyColumn('评估价值', 'value'),
          dateColumn('评估日期', 'valuationDate'),
          { title: '登记编号', dataIndex: 'regNo' },
          {
            title: '估值',
            render: (_, r) => (r.stale ? <Tag color="warning">需重估</Tag> : <Tag color="success">有效</Tag>),
          },
        ]}
      />
      <Modal
        title={`解除担保：${releasing?.guarantorName ?? ''}`}
        open={releasing !== null}
        onCancel={() => setReleasing(null)}
        onOk={() => void release()}
        okText="解除"
      >
        <Form form={form} layout="vertical">
          <Form.Item name="reason" label="解除原因" rules={releaseRules.reason}>
            <Input.TextArea rows={2} maxLength={200} aria-label="解除原因" />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
