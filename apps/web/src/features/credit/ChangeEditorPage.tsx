import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Select, Space } from 'antd';
import {
  CHANGE_TYPE_LABELS,
  CREDIT_PATHS,
  LINE_KIND_LABELS,
  type CreditListRow,
  changeSaveSchema,
} from '@portal/contract/credit';
import type { Page } from '@portal/contract/api';
import { formatMoney } from '@portal/contract/format';
import { DateInput } from '../../shared/form/DateInput';
import { MoneyInput } from '../../shared/form/MoneyInput';
import { formRules } from '../../shared/form/zod-rule';
import { post } from '../../shared/request/http';
import { CREDIT_ROUTES, creditApi, type Saved } from './api';
import { DocStateTag } from '../../shared/workflow/DocStateTag';
import { validValues } from '../../shared/ui/valid-values';
import { usePageFormName } from '../../shared/form/form-name';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { CHANGE_DOC } from './doc-kinds';

const options = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));
const rules = formRules(changeSaveSchema);

/** 额度变更编辑: raise, lower, extend, freeze or unfreeze one line of an approved credit. */
export default function ChangeEditorPage() {
  const [params] = useSearchParams();
  const bizCode = params.get('bizCode') ?? '';
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [form] = Form.useForm<Record<string, string | undefined>>();
  const formName = usePageFormName('change');
  const [version, setVersion] = useState<number | undefined>();
  const credBizCode = Form.useWatch('credBizCode', form);
  const changeType = Form.useWatch('changeType', form);

  const change = useQuery({
    queryKey: ['credit', 'chg', bizCode],
    queryFn: () => creditApi.change(bizCode),
    enabled: !!bizCode,
  });
  const credits = useQuery({
    queryKey: ['credit', 'approvedCredits'],
    queryFn: () =>
      post<Page<CreditListRow>>(CREDIT_PATHS.creditList, { pageNum: 1, pageSize: 500, state: 'approved' }),
  });
  const credit = credits.data?.list.find((c) => c.bizCode === credBizCode);
  const lines = useQuery({
    queryKey: ['credit', 'lines', credit?.custCode],
    queryFn: () => creditApi.lines(credit!.custCode),
    enabled: !!credit,
  });
  const ft = useQuery({
    queryKey: ['credit', 'ft', credBizCode],
    queryFn: () => creditApi.ft(credBizCode!),
    enabled: !!credBizCode,
  });
  const platform = useQuery({
    queryKey: ['credit', 'platform', credBizCode],
    queryFn: () => creditApi.platform(credBizCode!),
    enabled: !!credBizCode,
  });
  const candidates = [
    ...(platform.data?.line ? [platform.data.line] : []),
    ...(ft.data ?? []).flatMap((f) => (f.line ? [f.line] : [])),
    ...(lines.data ?? []).filter((l) => l.kind === 'distribution'),
  ];

  useEffect(() => {
    if (!change.data) return;
    setVersion(change.data.version);
    form.setFieldsValue({
      credBizCode: change.data.credBizCode,
      lineCode: change.data.lineCode,
      changeType: change.data.changeType,
      newLimit: change.data.newLimit ?? undefined,
      newEndDate: change.data.newEndDate ?? undefined,
      reason: change.data.reason,
    });
  }, [change.data, form]);

  const editable = !bizCode || change.data?.state === 'draft' || change.data?.state === 'rejected';
  const save = async (submit: boolean) => {
    const v = await validValues(form);
    if (!v) return;
    const body = { ...v, ...(bizCode ? { bizCode, version } : {}), submit };
    const r = await creditApi
      .save<Saved>(CREDIT_PATHS.saveCredChange, body, submit ? '额度变更并提交审批' : '额度变更')
      .catch(() => null);
    if (!r?.ok || !r.data) return;
    setVersion(r.data.version);
    void qc.invalidateQueries({ queryKey: ['credit'] });
    if (submit) navigate(`${CREDIT_ROUTES.chgView}?bizCode=${r.data.bizCode}`);
    else if (!bizCode) navigate(`${CREDIT_ROUTES.chgEditor}?bizCode=${r.data.bizCode}`, { replace: true });
  };

  return (
    <EditorFrame
      testId="chg-editor"
      title={bizCode ? `额度变更编辑 ${bizCode}` : '新增额度变更'}
      tags={change.data ? <DocStateTag state={change.data.state} /> : null}
      backTo={CREDIT_ROUTES.chgList}
      doc={bizCode ? { docType: CHANGE_DOC.docType, docCode: bizCode } : undefined}
    >
      <Form
        form={form}
        name={formName}
        layout="vertical"
        disabled={!editable}
        style={{ maxWidth: 640 }}
        initialValues={{ changeType: 'raise' }}
      >
        <Form.Item name="credBizCode" label="授信" rules={rules.credBizCode}>
          <Select
            showSearch
            aria-label="授信"
            optionFilterProp="label"
            options={(credits.data?.list ?? []).map((c) => ({
              value: c.bizCode,
              label: `${c.bizCode} ${c.custName}`,
            }))}
          />
        </Form.Item>
        <Form.Item name="lineCode" label="额度（默认平台额度）" rules={rules.lineCode}>
          <Select
            allowClear
            aria-label="额度"
            options={candidates.map((l) => ({
              value: l.lineCode,
              label: `${l.lineCode} ${LINE_KIND_LABELS[l.kind]} ${l.debtorName ?? l.custName} 额度 ${formatMoney(l.limitAmount)} 已占用 ${formatMoney(l.occupiedAmount)}`,
            }))}
          />
        </Form.Item>
        <Form.Item name="changeType" label="变更类型" rules={rules.changeType}>
          <Select aria-label="变更类型" options={options(CHANGE_TYPE_LABELS)} />
        </Form.Item>
        {changeType === 'raise' || changeType === 'lower' ? (
          <Form.Item name="newLimit" label="变更后额度" required rules={rules.newLimit}>
            <MoneyInput aria-label="变更后额度" />
          </Form.Item>
        ) : null}
        {changeType === 'extend' ? (
          <Form.Item name="newEndDate" label="变更后到期日" required rules={rules.newEndDate}>
            <DateInput aria-label="变更后到期日" />
          </Form.Item>
        ) : null}
        <Form.Item name="reason" label="变更原因" rules={rules.reason}>
          <Input.TextArea aria-label="变更原因" rows={2} maxLength={500} />
        </Form.Item>
        <Space>
          <Button type="primary" onClick={() => void save(false)}>
            保存
          </Button>
          <Button onClick={() => void save(true)}>提交审批</Button>
        </Space>
      </Form>
    </EditorFrame>
  );
}
