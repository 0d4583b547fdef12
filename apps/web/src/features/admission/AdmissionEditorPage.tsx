import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Form, Input, Select, type FormRule } from 'antd';
import {
  ADMISSION_DOC_TYPE,
  admissionSaveSchema,
  KYC_FILE_LABELS,
  KYC_FILES,
  type AdmissionSave,
  type KycFile,
} from '@portal/contract/admission';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { SaveButtons } from '../../shared/editor/SaveButtons';
import { useFormFill } from '../../shared/editor/use-form-fill';
import { FilesField } from '../../shared/files/FilesField';
import type { FileItem } from '../../shared/files/files-api';
import { formRules } from '../../shared/form/zod-rule';
import type { ScreenProps } from '../../shared/ui/screen';
import { validValues } from '../../shared/ui/valid-values';
import { companyKeys } from '../../shared/company/api';
import { useCompanyDict } from '../../shared/company/api';
import { ADMISSION_ROUTES, admissionApi, admissionKeys, admissionQueries } from './api';

const rules = formRules(admissionSaveSchema);

type FormValues = {
  compCode?: string;
  legalIdNo?: string;
  controllerName?: string;
  bankBizCode?: string;
  remark?: string;
} & Record<KycFile, FileItem[]>;

/** One KYC file is required per item, as the server requires it (请上传…). */
const oneFile = (f: KycFile): FormRule => ({
  validator: (_, v: FileItem[] | undefined) =>
    v?.length ? Promise.resolve() : Promise.reject(new Error(`请上传${KYC_FILE_LABELS[f]}`)),
});

/**
 * 客户准入新增 / 编辑 (`?bizCode=` edits a draft or rejected one; `?compCode=` starts one for the
 * customer, from the 企业客户 list's 办理准入).
 */
export default function AdmissionEditorPage(_props: ScreenProps) {
  const [params, setParams] = useSearchParams();
  const bizCode = params.get('bizCode') ?? '';
  const fromCompany = params.get('compCode') ?? '';
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const customers = useCompanyDict().data ?? [];
  const compCode = Form.useWatch('compCode', form);
  const accounts = useQuery(admissionQueries.customerAccounts(compCode)).data ?? [];
  const [version, setVersion] = useState<number | undefined>();
  const [saving, setSaving] = useState(false);

  const existing = useQuery({
    ...admissionQueries.view(bizCode),
    gcTime: 0,
  });

  // Filled once per record, never from a plain effect: a kept tab shown again runs its effects
  // again, and would put the record back over typed input (docs/architecture.md "Editors keep
  // their input"). Another document is another page, mounted afresh.
  useFormFill({ data: bizCode ? undefined : fromCompany || undefined, isLoading: false }, (c) =>
    form.setFieldsValue({ compCode: c }),
  );
  useFormFill(existing, (v) => {
    setVersion(v.version);
    form.setFieldsValue({
      compCode: v.compCode,
      legalIdNo: v.legalIdNo,
      controllerName: v.controllerName,
      bankBizCode: v.bankBizCode,
      remark: v.remark ?? undefined,
      ...Object.fromEntries(KYC_FILES.map((f) => [f, v.files[f] ? [v.files[f]] : []])),
    });
  });

  const save = async (submit: boolean) => {
    const values = await validValues(form);
    if (!values) return;
    const body: AdmissionSave = {
      ...(bizCode ? { bizCode, version } : {}),
      compCode: values.compCode ?? '',
      legalIdNo: values.legalIdNo ?? '',
      controllerName: values.controllerName ?? '',
      bankBizCode: values.bankBizCode ?? '',
      licenseFile: values.licenseFile?.[0]?.fileToken ?? '',
      legalIdFile: values.legalIdFile?.[0]?.fileToken ?? '',
      controllerFile: values.controllerFile?.[0]?.fileToken ?? '',
      bankProofFile: values.bankProofFile?.[0]?.fileToken ?? '',
      remark: values.remark,
      submit,
    };
    setSaving(true);
    try {
      const r = await admissionApi.save(body, {
        confirm: `此操作将保存客户准入单${submit ? '并提交审批' : ''}！ 是否继续？`,
      });
      if (!r.ok || !r.data) return;
      const saved = r.data;
      void qc.invalidateQueries({ queryKey: admissionKeys.all });
      void qc.invalidateQueries({ queryKey: companyKeys.all });
      setVersion(saved.version);
      if (submit) void navigate(`${ADMISSION_ROUTES.view}?bizCode=${saved.bizCode}`);
      else if (!bizCode)
        void navigate(`${ADMISSION_ROUTES.editor}?bizCode=${saved.bizCode}`, { replace: true });
      else setParams({ bizCode }, { replace: true });
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };

  return (
    <EditorFrame
      testId="admission-editor"
      title={bizCode ? `客户准入 ${bizCode}` : '新增客户准入'}
      backTo={ADMISSION_ROUTES.list}
      state={bizCode ? existing.data?.state : undefined}
      viewTo={`${ADMISSION_ROUTES.view}?bizCode=${bizCode}`}
      doc={bizCode ? { docType: ADMISSION_DOC_TYPE, docCode: bizCode } : undefined}
    >
      <Alert
        style={{ marginBottom: 12, maxWidth: 760 }}
        type="info"
        showIcon
        message="客户准入经风控审核通过后，该企业客户才能办理授信和合同。请上传营业执照、法定代表人身份证件、实际控制人/受益所有人证明和银行账户证明。"
      />
      <Form<FormValues>
        form={form}
        name="custAdmission"
        layout="vertical"
        initialValues={Object.fromEntries(KYC_FILES.map((f) => [f, []]))}
        style={{ maxWidth: 760 }}
      >
        <Form.Item name="compCode" label="企业客户" rules={rules.compCode}>
          <Select
            showSearch
            disabled={!!bizCode}
            optionFilterProp="label"
            placeholder="请选择企业客户"
            aria-label="企业客户"
            options={customers.map((c) => ({ value: c.code, label: c.label }))}
            onChange={() => form.setFieldValue('bankBizCode', undefined)}
          />
        </Form.Item>
        <Form.Item
          name="legalIdNo"
          label="法定代表人身份证号"
          normalize={(v: string) => v?.toUpperCase().trim()}
          rules={rules.legalIdNo}
        >
          <Input maxLength={18} aria-label="法定代表人身份证号" />
        </Form.Item>
        <Form.Item name="controllerName" label="实际控制人/受益所有人" rules={rules.controllerName}>
          <Input maxLength={200} aria-label="实际控制人/受益所有人" placeholder="姓名及持股比例" />
        </Form.Item>
        <Form.Item name="bankBizCode" label="银行账户" rules={rules.bankBizCode}>
          <Select
            aria-label="银行账户"
            placeholder={compCode ? '请选择该客户的银行账户' : '请先选择企业客户'}
            options={accounts}
          />
        </Form.Item>
        {KYC_FILES.map((f) => (
          <FilesField key={f} name={f} label={KYC_FILE_LABELS[f]} max={1} rules={[oneFile(f)]} />
        ))}
        <Form.Item name="remark" label="备注" rules={rules.remark}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <SaveButtons loading={saving} save={save} />
      </Form>
    </EditorFrame>
  );
}
