import { useState, type CSSProperties, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Select, Space, type FormInstance, type FormRule } from 'antd';
import type { DocState } from '@portal/contract/workflow';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { validValues } from '../../shared/ui/valid-values';
import { DocStateTag } from '../../shared/workflow/DocStateTag';
import { type DocKind, useDocSaved } from '../../shared/workflow/doc-kind';
import { creditApi, creditQueries, type Saved } from './api';
import { useFormFill, type Arriving } from '../../shared/editor/use-form-fill';

/** A document of an approved credit (额度分配, 额度变更) as its editor saves it. */
export interface CreditDocSpec {
  kind: DocKind;
  /** Its name in the title and the save's confirmation (额度分配). */
  what: string;
  savePath: string;
  testId: string;
}

type FormValues<V> = Parameters<FormInstance<V>['setFieldsValue']>[0];

/** What the part below the form gets: the document's current version, to save files with it. */
export interface CreditDocState {
  version: number | undefined;
  setVersion: (version: number) => void;
  editable: boolean;
}

/**
 * The editor of a credit document on the editor frame: the document read (`read`) fills the form,
 * 授信 picks one of the approved credits, the feature's own fields follow, then 保存 and 提交审批.
 * Both validate with the form's schema rules before the confirmation; a first 保存 moves to the
 * saved document's editor, 提交审批 to its view. Only a draft or a rejected document is editable.
 */
export function CreditDocEditor<V extends { credBizCode?: string | undefined }, D extends DocShape>(props: {
  spec: CreditDocSpec;
  /** The document the URL names ('' when adding). */
  bizCode: string;
  /** The document's read (its query), which fills the form once it arrives. */
  read: Arriving<D>;
  /** The form's values of the document read (a module-level function: the form is filled once a read). */
  toForm: (doc: D) => FormValues<V>;
  form: FormInstance<V>;
  formName: string;
  initialValues: FormValues<V>;
  credRule: FormRule[];
  /** 授信 is fixed once the document is saved (额度分配: its lines hang on the credit's). */
  credFixed?: boolean;
  formStyle?: CSSProperties;
  children: ReactNode;
  after?: (state: CreditDocState) => ReactNode;
}) {
  const { spec, bizCode, form, toForm } = props;
  const doc = props.read.data;
  const [version, setVersion] = useState<number | undefined>();
  const credits = useQuery(creditQueries.approvedCredits());

  useFormFill(props.read, (d) => {
    setVersion(d.version);
    form.setFieldsValue(toForm(d));
  });

  const editable = !bizCode || doc?.state === 'draft' || doc?.state === 'rejected';

  const saved = useDocSaved(spec.kind, bizCode);
  const save = async (submit: boolean) => {
    const v = await validValues(form);
    if (!v) return;
    const body = { ...v, ...(bizCode ? { bizCode, version } : {}), submit };
    const r = await creditApi
      .save<Saved>(spec.savePath, body, submit ? `${spec.what}并提交审批` : spec.what)
      .catch(() => null);
    if (!r?.ok || !r.data) return;
    setVersion(r.data.version);
    saved(r.data.bizCode, submit);
  };

  return (
    <EditorFrame
      testId={spec.testId}
      title={bizCode ? `${spec.what}编辑 ${bizCode}` : `新增${spec.what}`}
      tags={doc ? <DocStateTag state={doc.state} /> : null}
      backTo={spec.kind.routes.list}
      doc={bizCode ? { docType: spec.kind.docType, docCode: bizCode } : undefined}
    >
      <Form<V>
        form={form}
        name={props.formName}
        layout="vertical"
        disabled={!editable}
        style={props.formStyle}
        initialValues={props.initialValues}
      >
        <Form.Item name="credBizCode" label="授信" rules={props.credRule}>
          <Select
            showSearch
            aria-label="授信"
            optionFilterProp="label"
            disabled={props.credFixed && !!bizCode}
            options={(credits.data?.list ?? []).map((c) => ({
              value: c.bizCode,
              label: `${c.bizCode} ${c.custName}`,
            }))}
          />
        </Form.Item>
        {props.children}
        <Space>
          <Button type="primary" onClick={() => void save(false)}>
            保存
          </Button>
          <Button onClick={() => void save(true)}>提交审批</Button>
        </Space>
      </Form>
      {props.after?.({ version, setVersion, editable })}
    </EditorFrame>
  );
}

interface DocShape {
  state: DocState;
  version: number;
}
