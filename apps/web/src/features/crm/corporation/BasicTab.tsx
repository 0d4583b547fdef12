import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Space, Spin, Tag } from 'antd';
import { COMPANY_PATHS, type CompanyAdd, type CompanyView } from '@portal/contract/company';
import {
  CompanyFields,
  companyBody,
  companyToForm,
  NEW_COMPANY_VALUES,
  type CompanyFormValues,
} from '../../../shared/company/CompanyFields';
import { UnsavedInput } from '../../../shared/editor/UnsavedInput';
import { Auth } from '../../../shared/permission/Auth';
import type { ScreenProps } from '../../../shared/ui/screen';
import { change, CORP_EDIT_PATH, crmKeys, useCompCode, useCustomer } from '../api';
import { isView, SAVE } from './tab-kit';

/** 基本信息: the customer itself (company calls); a new customer is created here first. */
export function BasicTab({ meta }: ScreenProps) {
  const compCode = useCompCode();
  const customer = useCustomer(compCode);
  // The form mounts with the loaded values (no later overwrite of what the user types).
  if (compCode && !customer.data)
    return (
      <Card className="crm-tab" title="基本信息">
        <Spin />
      </Card>
    );
  return (
    <BasicForm key={compCode ?? 'new'} readOnly={isView(meta)} compCode={compCode} initial={customer.data} />
  );
}

function BasicForm({
  readOnly,
  compCode,
  initial,
}: {
  readOnly: boolean;
  compCode: string | undefined;
  initial: CompanyView | undefined;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CompanyFormValues>();
  const [saving, setSaving] = useState(false);

  const submit = async (v: CompanyFormValues) => {
    // The parent is kept as saved (this tab does not edit it).
    const body: CompanyAdd = { ...companyBody(v), parentCompCode: initial?.parentCompCode ?? undefined };
    setSaving(true);
    try {
      const r =
        compCode && initial
          ? await change<{ compCode: string }>(COMPANY_PATHS.update, {
              ...body,
              compCode,
              version: initial.version,
            })
          : await change<{ compCode: string }>(COMPANY_PATHS.add, body);
      if (r.ok && r.data) {
        await queryClient.invalidateQueries({ queryKey: crmKeys.part('customer') });
        if (!compCode)
          navigate(`${CORP_EDIT_PATH}/corporation?compCode=${r.data.compCode}`, { replace: true });
      }
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      className="crm-tab"
      data-testid="crm-tab-corporation"
      title={
        <Space>
          <span>{compCode ? '基本信息' : '新增企业'}</span>
          {initial ? <Tag color="blue">{initial.compName}</Tag> : null}
        </Space>
      }
    >
      {/* The unsaved-input guard of the editors: leaving the record with typed input asks first. */}
      <UnsavedInput>
        <Form<CompanyFormValues>
          name="crmBasic"
          form={form}
          layout="vertical"
          disabled={readOnly}
          initialValues={initial ? companyToForm(initial) : NEW_COMPANY_VALUES}
          onFinish={(v) => void submit(v)}
        >
          <CompanyFields compCode={compCode} />
          {readOnly ? null : (
            <Auth code={SAVE}>
              <Button type="primary" htmlType="submit" loading={saving}>
                保存
              </Button>
            </Auth>
          )}
        </Form>
      </UnsavedInput>
    </Card>
  );
}
