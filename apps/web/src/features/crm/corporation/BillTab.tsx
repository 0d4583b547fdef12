import { Col, Form, Input, Row, Spin } from 'antd';
import { CRM_PATHS, billSaveSchema, type BillSave, type BillView } from '@portal/contract/crm';
import { fieldRules } from '../../../shared/form/zod-rule';
import type { ScreenProps } from '../../../shared/ui/screen';
import { useCompCode } from '../api';
import { SaveBar, useRecord, useRecordSave } from './record';
import { isView, TabFrame } from './tab-kit';

const rules = fieldRules(billSaveSchema);

type BillValues = Omit<BillSave, 'compCode' | 'version'>;

/** 开票信息: invoice title, taxpayer number, address/phone and bank for invoices. */
export function BillTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const [form] = Form.useForm<BillValues>();
  const rec = useRecord<BillView>(CRM_PATHS.billView, compCode);
  const { save, saving } = useRecordSave(CRM_PATHS.billSave, CRM_PATHS.billView, compCode);
  const initial = rec.data
    ? {
        invoiceTitle: rec.data.invoiceTitle,
        taxNo: rec.data.taxNo,
        address: rec.data.address ?? undefined,
        phone: rec.data.phone ?? undefined,
        bankName: rec.data.bankName,
        bankAccountNo: rec.data.bankAccountNo,
        remark: rec.data.remark ?? undefined,
      }
    : undefined;
  return (
    <TabFrame title="开票信息" compCode={compCode} testId="crm-tab-bill">
      {rec.isLoading ? (
        <Spin />
      ) : (
        <Form<BillValues>
          initialValues={initial}
          form={form}
          name="crmBill"
          layout="vertical"
          disabled={readOnly}
          onFinish={(v) => void save(v, rec.data?.version)}
        >
          <Row gutter={24}>
            <Col span={12}>
              <Form.Item name="invoiceTitle" label="发票抬头" rules={rules.invoiceTitle}>
                <Input maxLength={100} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="taxNo"
                label="纳税人识别号"
                normalize={(v: string) => v?.toUpperCase().trim()}
                rules={rules.taxNo}
              >
                <Input maxLength={20} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="address" label="注册地址" rules={rules.address}>
                <Input maxLength={200} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="phone" label="注册电话" rules={rules.phone}>
                <Input maxLength={30} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="bankName" label="开户银行" rules={rules.bankName}>
                <Input maxLength={100} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="bankAccountNo" label="开票银行账号" rules={rules.bankAccountNo}>
                <Input maxLength={40} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="remark" label="备注" rules={rules.remark}>
                <Input maxLength={500} />
              </Form.Item>
            </Col>
          </Row>
          <SaveBar readOnly={readOnly} saving={saving} />
        </Form>
      )}
    </TabFrame>
  );
}
