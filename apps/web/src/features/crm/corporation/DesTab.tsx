import { Form, Input, Spin } from 'antd';
import { CRM_PATHS, desSaveSchema, type DesSave, type DesView } from '@portal/contract/crm';
import { fieldRules } from '../../../shared/form/zod-rule';
import type { ScreenProps } from '../../../shared/ui/screen';
import { useCompCode } from '../api';
import { SaveBar, useRecord, useRecordSave } from './record';
import { isView, TabFrame } from './tab-kit';

type DesValues = Omit<DesSave, 'compCode' | 'version'>;

const rules = fieldRules(desSaveSchema);

/** 企业介绍. */
export function DesTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const [form] = Form.useForm<DesValues>();
  const rec = useRecord<DesView>(CRM_PATHS.desView, compCode);
  const { save, saving } = useRecordSave(CRM_PATHS.desSave, CRM_PATHS.desView, compCode);
  const initial = rec.data
    ? {
        intro: rec.data.intro,
        mainBusiness: rec.data.mainBusiness ?? undefined,
        website: rec.data.website ?? undefined,
      }
    : undefined;
  return (
    <TabFrame title="企业介绍" compCode={compCode} testId="crm-tab-des">
      {rec.isLoading ? (
        <Spin />
      ) : (
        <Form<DesValues>
          initialValues={initial}
          form={form}
          name="crmDes"
          layout="vertical"
          disabled={readOnly}
          onFinish={(v) => void save(v, rec.data?.version)}
        >
          <Form.Item name="intro" label="企业简介" rules={rules.intro}>
            <Input.TextArea rows={6} maxLength={5000} showCount />
          </Form.Item>
          <Form.Item name="mainBusiness" rules={rules.mainBusiness} label="主营业务">
            <Input.TextArea rows={3} maxLength={1000} />
          </Form.Item>
          <Form.Item name="website" label="企业网址" rules={rules.website}>
            <Input maxLength={200} />
          </Form.Item>
          <SaveBar readOnly={readOnly} saving={saving} />
        </Form>
      )}
    </TabFrame>
  );
}
