import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Col, Form, Input, InputNumber, Row, Select, Space, Spin } from 'antd';
import {
  CRM_PATHS,
  HOLDER_TYPE_LABELS,
  HOLDER_TYPES,
  type AddSave,
  type AddView,
  addSaveSchema,
  shareholderSchema,
} from '@portal/contract/crm';
import { MoneyInput } from '../../../shared/form/MoneyInput';
import { fieldRules } from '../../../shared/form/zod-rule';
import type { ScreenProps } from '../../../shared/ui/screen';
import { useCompCode } from '../api';
import { SaveBar, useRecord, useRecordSave } from './record';
import { isView, TabFrame } from './tab-kit';

const rules = fieldRules(addSaveSchema);
const holderRules = fieldRules(shareholderSchema);

type AddValues = Omit<AddSave, 'compCode' | 'version' | 'staffCount'> & { staffCount?: number | null };

/** corporationAdd: actual controller, staff, business scope and shareholders (ratios ≤ 100 %). */
export function CorporationAddTab({ meta }: ScreenProps) {
  const readOnly = isView(meta);
  const compCode = useCompCode();
  const [form] = Form.useForm<AddValues>();
  const rec = useRecord<AddView>(CRM_PATHS.addView, compCode);
  const { save, saving } = useRecordSave(CRM_PATHS.addSave, CRM_PATHS.addView, compCode);
  const initial = rec.data
    ? {
        actualController: rec.data.actualController,
        controllerIdNo: rec.data.controllerIdNo ?? undefined,
        staffCount: rec.data.staffCount,
        businessScope: rec.data.businessScope ?? undefined,
        shareholders: rec.data.shareholders.map((h) => ({ ...h, contribution: h.contribution ?? undefined })),
      }
    : undefined;
  return (
    <TabFrame title="股东及实际控制人" compCode={compCode} testId="crm-tab-corporationAdd">
      {rec.isLoading ? (
        <Spin />
      ) : (
        <Form<AddValues>
          form={form}
          name="crmAdd"
          layout="vertical"
          disabled={readOnly}
          initialValues={initial ?? { shareholders: [] }}
          onFinish={(v) => void save({ ...v, staffCount: v.staffCount ?? undefined }, rec.data?.version)}
        >
          <Row gutter={24}>
            <Col span={8}>
              <Form.Item name="actualController" label="实际控制人" rules={rules.actualController}>
                <Input maxLength={50} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="controllerIdNo" label="实际控制人证件号" rules={rules.controllerIdNo}>
                <Input maxLength={30} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="staffCount" label="员工人数" rules={rules.staffCount}>
                <InputNumber style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="businessScope" label="经营范围" rules={rules.businessScope}>
                <Input.TextArea rows={2} maxLength={2000} />
              </Form.Item>
            </Col>
          </Row>
          <Form.List name="shareholders">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f) => (
                  <Space key={f.key} align="baseline" wrap data-testid="shareholder-row">
                    <Form.Item name={[f.name, 'holderName']} label="股东名称" rules={holderRules.holderName}>
                      <Input maxLength={100} style={{ width: 220 }} />
                    </Form.Item>
                    <Form.Item
                      name={[f.name, 'holderType']}
                      label="股东类型"
                      initialValue="person"
                      rules={holderRules.holderType}
                    >
                      <Select
                        style={{ width: 110 }}
                        options={HOLDER_TYPES.map((h) => ({ value: h, label: HOLDER_TYPE_LABELS[h] }))}
                      />
                    </Form.Item>
                    <Form.Item name={[f.name, 'ratio']} label="持股比例（%）" rules={holderRules.ratio}>
                      <Input style={{ width: 120 }} />
                    </Form.Item>
                    <Form.Item
                      name={[f.name, 'contribution']}
                      label="认缴出资额（元）"
                      rules={holderRules.contribution}
                    >
                      <MoneyInput style={{ width: 160 }} />
                    </Form.Item>
                    {readOnly ? null : (
                      <MinusCircleOutlined onClick={() => remove(f.name)} aria-label="删除股东" />
                    )}
                  </Space>
                ))}
                {readOnly ? null : (
                  <Form.Item>
                    <Button type="dashed" icon={<PlusOutlined />} onClick={() => add()}>
                      添加股东
                    </Button>
                  </Form.Item>
                )}
              </>
            )}
          </Form.List>
          <SaveBar readOnly={readOnly} saving={saving} />
        </Form>
      )}
    </TabFrame>
  );
}
