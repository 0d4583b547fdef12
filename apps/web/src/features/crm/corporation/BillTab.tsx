import { Col, Form, Input, Row, Spin } from 'antd';
import { CRM_PATHS, type BillSave, type BillView } from '@portal/contract/crm';
import type { ScreenProps } from '../../../shared/ui/screen';
import { useCompCode } from '../api';
import { SaveBar, useRecord, useRecordSave } from './record';
import { isView, TabFrame } from './tab-kit';

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
              <Form.Item
                name="invoiceTitle"
                label="发票抬头"
                rules={[{ required: true, whitespace: true, message: '发票抬头不能为空' }]}
              >
                <Input maxLength={100} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="taxNo"
                label="纳税人识别号"
                normalize={(v: string) => v?.toUpperCase().trim()}
                rules={[
                  { required: true, message: '纳税人识别号不能为空' },
                  { pattern: /^[0-9A-Z]{15,20}$/, message: '纳税人识别号必须是15到20位数字或大写字母' },
                ]}
              >
                <Input maxLength={20} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="address" label="注册地址">
                <Input maxLength={200} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="phone"
                label="注册电话"
                rules={[{ pattern: /^[0-9+\-() ]{5,30}$/, message: '注册电话格式不正确' }]}
              >
                <Input maxLength={30} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="bankName"
                label="开户银行"
                rules={[{ required: true, whitespace: true, message: '开户银行不能为空' }]}
              >
                <Input maxLength={100} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="bankAccountNo"
                label="开票银行账号"
                rules={[
                  { required: true, message: '银行账号不能为空' },
                  { pattern: /^[\d\s]{8,40}$/, message: '银行账号必须是8到30位数字' },
                ]}
              >
                <Input maxLength={40} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="remark" label="备注">
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
