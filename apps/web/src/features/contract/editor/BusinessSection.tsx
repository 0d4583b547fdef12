import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Space, Typography } from 'antd';
import { CONTRACT_PATHS, businessInfoSchema } from '@portal/contract/contract';
import { FilesField } from '../../../shared/files/FilesField';
import type { FileItem } from '../../../shared/files/files-api';
import { DateInput } from '../../../shared/form/DateInput';
import { usePageFormName } from '../../../shared/form/form-name';
import { MoneyInput } from '../../../shared/form/MoneyInput';
import { fieldRules } from '../../../shared/form/zod-rule';
import { validValues } from '../../../shared/ui/valid-values';
import { contractQueries } from '../api';
import type { ContractDoc } from './contract-doc';
import { useFormFill } from '../../../shared/editor/use-form-fill';

const businessRules = fieldRules(businessInfoSchema);
type Values = Record<string, unknown>;

/** 业务信息: the trade behind the contract and its documents (with the files' history). */
export function BusinessSection({ doc }: { doc: ContractDoc }) {
  const { bizCode, editable } = doc;
  const [form] = Form.useForm<Values>();
  const formName = usePageFormName('business');
  const business = useQuery(contractQueries.business(bizCode));
  const history = useQuery(contractQueries.fileHistory(business.data?.contractdetailCode));

  useFormFill(business, (b) => form.setFieldsValue({ ...b, settlementDays: b.settlementDays ?? undefined }));
  const files = useMemo(() => {
    const tokens = new Set(business.data?.fileTokens ?? []);
    return (history.data ?? []).filter((h) => tokens.has(h.fileToken));
  }, [business.data, history.data]);
  useFormFill({ data: files, isLoading: business.isLoading || history.isLoading }, (f) =>
    form.setFieldsValue({ files: f }),
  );

  const save = async () => {
    const values = await validValues(form);
    if (!values) return;
    const { contractdetailCode: _c, fileTokens: _f, ...rest } = values;
    await doc.save({
      path: CONTRACT_PATHS.businessSave,
      body: {
        ...Object.fromEntries(
          Object.entries(rest).filter(([, v]) => v !== undefined && v !== null && v !== ''),
        ),
        contBizCode: bizCode,
        version: doc.version,
        fileTokens: ((values.files as FileItem[] | undefined) ?? []).map((f) => f.fileToken),
      },
      what: '业务信息',
    });
  };

  return (
    <Form
      form={form}
      name={formName}
      layout="vertical"
      disabled={!editable}
      style={{ maxWidth: 760 }}
      data-testid="business-tab"
    >
      <Space wrap>
        <Form.Item name="tradeContractNo" label="贸易合同号" rules={businessRules.tradeContractNo}>
          <Input aria-label="贸易合同号" />
        </Form.Item>
        <Form.Item name="goodsName" label="货物名称" rules={businessRules.goodsName}>
          <Input aria-label="货物名称" />
        </Form.Item>
        <Form.Item name="tradeAmount" label="贸易合同金额" rules={businessRules.tradeAmount}>
          <MoneyInput aria-label="贸易合同金额" />
        </Form.Item>
        <Form.Item name="tradeDate" label="签订日" rules={businessRules.tradeDate}>
          <DateInput aria-label="签订日" />
        </Form.Item>
      </Space>
      <Form.Item name="remark" label="业务备注" rules={businessRules.remark}>
        <Input.TextArea rows={2} />
      </Form.Item>
      <FilesField name="files" label="业务资料" />
      <Button type="primary" onClick={() => void save()}>
        保存
      </Button>
      {(history.data?.length ?? 0) > 0 ? (
        <div style={{ marginTop: 16 }}>
          <Typography.Text type="secondary">资料历史</Typography.Text>
          <ul data-testid="file-history">
            {history.data!.map((h) => (
              <li key={h.fileToken}>
                {h.originFileName} {h.removed ? '（已移除）' : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Form>
  );
}
