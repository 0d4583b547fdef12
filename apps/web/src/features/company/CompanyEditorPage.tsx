import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Spin } from 'antd';
import {
  CompanyFields,
  companyBody,
  companyToForm,
  type CompanyFormValues,
} from '../../shared/company/CompanyFields';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { FilesField } from '../../shared/files/FilesField';
import type { FileItem } from '../../shared/files/files-api';
import { usePageFormName } from '../../shared/form/form-name';
import { ApiError } from '../../shared/request/http';
import { validValues } from '../../shared/ui/valid-values';
import type { ScreenProps } from '../../shared/ui/screen';
import { addCompany, COMPANY_LIST_KEY, companyEditQueries, updateCompany } from './api';
import { useFormFill } from '../../shared/editor/use-form-fill';

export const COMPANY_LIST_PATH = '/factoring/config/company';

interface FormValues extends CompanyFormValues {
  files: FileItem[];
}

/** 企业客户编辑: add or edit (`?compCode=`), with the region cascader, USCC check and attachments. */
export default function CompanyEditorPage(_props: ScreenProps) {
  const [params] = useSearchParams();
  const compCode = params.get('compCode') ?? undefined;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const formName = usePageFormName('company');
  const [saving, setSaving] = useState(false);
  const view = useQuery({ ...companyEditQueries.view(compCode), gcTime: 0 });

  // Another company (or 新增) is another page: the tabs mount the editor afresh for it.
  useFormFill(view, (v) => form.setFieldsValue({ ...companyToForm(v), files: v.files }));

  const save = async () => {
    const values = await validValues(form);
    if (!values) return;
    setSaving(true);
    try {
      const body = { ...companyBody(values), fileTokens: (values.files ?? []).map((f) => f.fileToken) };
      const r =
        compCode && view.data
          ? await updateCompany({ ...body, compCode, version: view.data.version })
          : await addCompany(body);
      if (r.ok) {
        void queryClient.invalidateQueries({ queryKey: COMPANY_LIST_KEY });
        void navigate(COMPANY_LIST_PATH);
      }
    } catch (err) {
      // The request layer has shown the server's message.
      if (!(err instanceof ApiError)) throw err;
    } finally {
      setSaving(false);
    }
  };

  return (
    <EditorFrame
      testId="company-editor"
      title={compCode ? '编辑企业客户' : '新增企业客户'}
      backTo={COMPANY_LIST_PATH}
      actions={
        <Button type="primary" loading={saving} onClick={() => void save()}>
          保存
        </Button>
      }
    >
      <Spin spinning={!!compCode && view.isLoading}>
        <Form<FormValues>
          name={formName}
          form={form}
          layout="vertical"
          initialValues={{ roles: [], files: [], compType: 'private' }}
        >
          <CompanyFields
            compCode={compCode}
            withParent
            initialParent={
              view.data?.parentCompCode
                ? {
                    value: view.data.parentCompCode,
                    label: view.data.parentCompName ?? view.data.parentCompCode,
                  }
                : undefined
            }
          />
          <FilesField name="files" label="资料文件" />
        </Form>
      </Spin>
    </EditorFrame>
  );
}
