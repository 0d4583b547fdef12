import { useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Form, Input } from 'antd';
import type { FormRule } from 'antd';
import { update } from '../request/http';
import { useBizDate } from '../bizdate/api';
import { DateInput } from '../form/DateInput';
import { useDocCode, useDocSaved, type DocKind } from '../workflow/doc-kind';
import { EditorFrame } from './EditorFrame';
import { SaveButtons } from './SaveButtons';
import { useFormFill } from './use-form-fill';
import { closureQueries } from './api';

/** What the server quotes for a contract on a date (回购单, 核销坏账): the contract named, then the figures. */
interface ContractQuote {
  contBizCode: string;
  contractNo: string;
  custName: string;
}

/**
 * The editor of a document that closes one contract's plan on a date (回购单, 核销坏账): the
 * contract code, the date (the business date by default) and a remark; the server quotes the
 * amount as they change (its refusal shown instead), and saving is possible only with a quote.
 */
export function ContractClosureEditor<Q extends ContractQuote>({
  kind,
  docName,
  testId,
  date,
  remarkLabel,
  customerLabel,
  rules,
  savePath,
  view,
  quote,
  figures,
}: {
  kind: DocKind;
  /** The document's name in titles and the confirmation (回购单, 核销坏账单). */
  docName: string;
  testId: string;
  /** The date's field name and label. */
  date: { name: string; label: string };
  remarkLabel: string;
  customerLabel: string;
  rules: Record<string, FormRule[]>;
  savePath: string;
  view: (code: string) => Promise<ContractQuote & { version: number; remark: string | null }>;
  quote: (contBizCode: string, date: string) => Promise<Q>;
  figures: (q: Q) => ReactNode;
}) {
  const code = useDocCode(kind);
  const [form] = Form.useForm<Record<string, string | undefined>>();
  const [version, setVersion] = useState<number | undefined>();
  const biz = useBizDate();
  const contBizCode = Form.useWatch('contBizCode', form);
  const day = Form.useWatch(date.name, form);
  const existing = useQuery(closureQueries.edit(kind, code, view));
  useFormFill(existing, (v) => {
    const saved = v as unknown as Record<string, string>;
    form.setFieldsValue({
      contBizCode: v.contBizCode,
      [date.name]: saved[date.name],
      remark: v.remark ?? '',
    });
    setVersion(v.version);
  });
  useEffect(() => {
    if (!code && biz.data && !form.getFieldValue(date.name))
      form.setFieldsValue({ [date.name]: biz.data.businessDate });
  }, [biz.data, code, form, date.name]);
  const ready = /^\d{12}$/.test(contBizCode ?? '') && /^\d{4}-\d{2}-\d{2}$/.test(day ?? '');
  const quoted = useQuery(closureQueries.quote(kind, contBizCode, day, quote, ready));
  const saved = useDocSaved(kind, code);
  const save = async (submit: boolean) => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const r = await update<Record<string, string | number>>(
      savePath,
      { ...values, ...(code ? { [kind.codeParam]: code, version } : {}), submit },
      { confirm: `此操作将保存${docName}${submit ? '并提交审批' : ''}！ 是否继续？` },
    ).catch(() => null);
    if (!r?.ok || !r.data) return;
    setVersion(Number(r.data.version));
    saved(String(r.data[kind.codeParam]), submit);
  };
  return (
    <EditorFrame
      testId={testId}
      title={code ? `${docName}编辑 ${code}` : `新增${docName}`}
      backTo={kind.routes.list}
      doc={code ? { docType: kind.docType, docCode: code } : undefined}
      actions={<SaveButtons save={save} disabled={!quoted.data} />}
    >
      <Form form={form} layout="inline" style={{ marginBottom: 12 }}>
        <Form.Item name="contBizCode" label="合同编号" rules={rules.contBizCode}>
          <Input aria-label="合同编号" style={{ width: 160 }} maxLength={12} />
        </Form.Item>
        <Form.Item name={date.name} label={date.label} rules={rules[date.name]}>
          <DateInput aria-label={date.label} />
        </Form.Item>
        <Form.Item name="remark" label={remarkLabel} rules={rules.remark}>
          <Input aria-label={remarkLabel} style={{ width: 320 }} maxLength={500} />
        </Form.Item>
      </Form>
      {quoted.error ? <Alert type="warning" showIcon message={(quoted.error as Error).message} /> : null}
      {quoted.data ? (
        <>
          <Descriptions size="small" bordered column={2} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="合同">{`${quoted.data.contractNo}（${quoted.data.contBizCode}）`}</Descriptions.Item>
            <Descriptions.Item label={customerLabel}>{quoted.data.custName}</Descriptions.Item>
          </Descriptions>
          {figures(quoted.data)}
        </>
      ) : null}
    </EditorFrame>
  );
}
