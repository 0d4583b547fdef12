import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, Spin } from 'antd';
import { CRM_PATHS } from '@portal/contract/crm';
import { FilesField } from '../../../shared/files/FilesField';
import type { FileItem } from '../../../shared/files/files-api';
import type { ScreenProps } from '../../../shared/ui/screen';
import { change, crmQueries, useCompCode } from '../api';
import { SaveBar } from './record';
import { isView, TabFrame } from './tab-kit';

/** 资料文件: the customer's documents through the shared file component. */
export function FileTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ files: FileItem[] }>();
  const [saving, setSaving] = useState(false);
  const files = useQuery(crmQueries.files(compCode));
  const submit = async (v: { files: FileItem[] }) => {
    setSaving(true);
    try {
      const r = await change(CRM_PATHS.fileSave, {
        compCode,
        fileTokens: (v.files ?? []).map((f) => f.fileToken),
      });
      if (r.ok) await queryClient.invalidateQueries({ queryKey: crmQueries.files(compCode).queryKey });
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };
  return (
    <TabFrame title="资料文件" compCode={compCode} testId="crm-tab-file">
      {files.isLoading ? (
        <Spin />
      ) : (
        <Form
          form={form}
          name="crmFiles"
          initialValues={{ files: files.data ?? [] }}
          onFinish={(v) => void submit(v)}
        >
          <FilesField name="files" readOnly={readOnly} />
          <SaveBar readOnly={readOnly} saving={saving} />
        </Form>
      )}
    </TabFrame>
  );
}
