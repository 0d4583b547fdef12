import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Cascader, Col, DatePicker, Form, Input, Row, Select, Space, Spin } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { CompanyAdd, CompanyView } from '@portal/contract/company';
import { MONEY_PATTERN } from '@portal/contract/fields';
import { usccProblem } from '@portal/contract/uscc';
import { FileList } from '../../shared/files/FileList';
import type { FileItem } from '../../shared/files/files-api';
import type { ScreenProps } from '../../shared/ui/screen';
import {
  addCompany,
  checkUscc,
  COMPANY_LIST_KEY,
  findSupComp,
  updateCompany,
  useInfoDict,
  useLinkage,
  viewCompany,
} from './api';

export const COMPANY_LIST_PATH = '/factoring/config/company';

interface FormValues {
  compName: string;
  usccCode: string;
  compType: CompanyAdd['compType'];
  roles: CompanyAdd['roles'];
  legalPerson: string;
  regCapital: string;
  establishDate?: Dayjs | null;
  region: string[];
  address?: string;
  industry?: CompanyAdd['industry'];
  contactName?: string;
  contactPhone?: string;
  contactEmail?: string;
  parentCompCode?: string;
  remark?: string;
  files: FileItem[];
}

function toForm(v: CompanyView): FormValues {
  return {
    compName: v.compName,
    usccCode: v.usccCode,
    compType: v.compType,
    roles: v.roles,
    legalPerson: v.legalPerson,
    regCapital: v.regCapital,
    establishDate: v.establishDate ? dayjs(v.establishDate) : null,
    region: [v.provinceCode, v.cityCode, v.areaCode].filter((c): c is string => !!c),
    address: v.address ?? undefined,
    industry: v.industry ?? undefined,
    contactName: v.contactName ?? undefined,
    contactPhone: v.contactPhone ?? undefined,
    contactEmail: v.contactEmail ?? undefined,
    parentCompCode: v.parentCompCode ?? undefined,
    remark: v.remark ?? undefined,
    files: v.files,
  };
}

function toBody(v: FormValues): CompanyAdd {
  return {
    compName: v.compName,
    usccCode: v.usccCode,
    compType: v.compType,
    roles: v.roles,
    legalPerson: v.legalPerson,
    regCapital: v.regCapital,
    establishDate: v.establishDate ? v.establishDate.format('YYYY-MM-DD') : undefined,
    provinceCode: v.region[0] ?? '',
    cityCode: v.region[1],
    areaCode: v.region[2],
    address: v.address,
    industry: v.industry,
    contactName: v.contactName,
    contactPhone: v.contactPhone,
    contactEmail: v.contactEmail,
    parentCompCode: v.parentCompCode,
    remark: v.remark,
    fileTokens: (v.files ?? []).map((f) => f.fileToken),
  };
}

/** 企业客户编辑: add or edit (`?compCode=`), with the region cascader, USCC check and attachments. */
export default function CompanyEditorPage(_props: ScreenProps) {
  const [params] = useSearchParams();
  const compCode = params.get('compCode') ?? undefined;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const dict = useInfoDict().data;
  const linkage = useLinkage().data ?? [];
  const [saving, setSaving] = useState(false);
  const [parents, setParents] = useState<{ value: string; label: string }[]>([]);
  const view = useQuery({
    queryKey: ['company', 'view', compCode],
    queryFn: () => viewCompany(compCode!),
    enabled: !!compCode,
    gcTime: 0,
  });

  // The same page serves 新增 after an edit: start from a clean form.
  useEffect(() => {
    if (!compCode) form.resetFields();
  }, [compCode, form]);

  useEffect(() => {
    if (!view.data) return;
    form.setFieldsValue(toForm(view.data));
    if (view.data.parentCompCode)
      setParents([
        { value: view.data.parentCompCode, label: view.data.parentCompName ?? view.data.parentCompCode },
      ]);
  }, [view.data, form]);

  const searchParents = async (name: string) => {
    const found = await findSupComp(name).catch(() => []);
    setParents(
      found.filter((f) => f.compCode !== compCode).map((f) => ({ value: f.compCode, label: f.compName })),
    );
  };

  const submit = async (values: FormValues) => {
    setSaving(true);
    try {
      const body = toBody(values);
      const r =
        compCode && view.data
          ? await updateCompany({ ...body, compCode, version: view.data.version })
          : await addCompany(body);
      if (r.ok) {
        await queryClient.invalidateQueries({ queryKey: COMPANY_LIST_KEY });
        navigate(COMPANY_LIST_PATH);
      }
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };

  const options = (items?: { code: string; label: string }[]) =>
    items?.map((d) => ({ value: d.code, label: d.label }));

  return (
    <Spin spinning={!!compCode && view.isLoading}>
      <Card title={compCode ? '编辑企业客户' : '新增企业客户'} className="company-editor">
        <Form<FormValues>
          name="companyEditor"
          form={form}
          layout="vertical"
          initialValues={{ roles: [], files: [], compType: 'private' }}
          onFinish={(v) => void submit(v)}
          onFinishFailed={() => undefined}
        >
          <Row gutter={24}>
            <Col span={12}>
              <Form.Item
                name="compName"
                label="企业名称"
                rules={[{ required: true, whitespace: true, message: '企业名称不能为空' }, { max: 100 }]}
              >
                <Input placeholder="请输入企业全称" maxLength={100} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="usccCode"
                label="统一社会信用代码"
                validateTrigger="onBlur"
                normalize={(v: string) => v?.toUpperCase().trim()}
                rules={[
                  { required: true, message: '统一社会信用代码不能为空' },
                  {
                    validator: async (_, v: string | undefined) => {
                      if (!v) return;
                      const problem = usccProblem(v);
                      if (problem) throw new Error(problem);
                      const hit = await checkUscc(v, compCode);
                      if (hit.exists)
                        throw new Error(`统一社会信用代码已被企业「${hit.compName ?? ''}」使用`);
                    },
                  },
                ]}
              >
                <Input placeholder="18位统一社会信用代码" maxLength={18} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item
                name="compType"
                label="企业类型"
                rules={[{ required: true, message: '企业类型不能为空' }]}
              >
                <Select options={options(dict?.compTypes)} />
              </Form.Item>
            </Col>
            <Col span={16}>
              <Form.Item
                name="roles"
                label="客户角色"
                rules={[{ required: true, type: 'array', min: 1, message: '客户角色不能为空' }]}
              >
                <Select mode="multiple" placeholder="可多选" options={options(dict?.roles)} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item
                name="legalPerson"
                label="法定代表人"
                rules={[{ required: true, whitespace: true, message: '法定代表人不能为空' }]}
              >
                <Input maxLength={50} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item
                name="regCapital"
                label="注册资本（元）"
                rules={[
                  { required: true, message: '注册资本不能为空' },
                  { pattern: MONEY_PATTERN, message: '注册资本必须是最多两位小数的金额' },
                  { pattern: /^[^-]/, message: '注册资本不能为负数' },
                ]}
              >
                <Input placeholder="如 10000000.00" />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="establishDate" label="成立日期">
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="region"
                label="所在地区"
                rules={[{ required: true, type: 'array', min: 1, message: '所在省份不能为空' }]}
              >
                <Cascader options={linkage} changeOnSelect placeholder="省 / 市 / 区" showSearch />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="address" label="详细地址">
                <Input maxLength={200} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="industry" label="所属行业">
                <Select allowClear showSearch optionFilterProp="label" options={options(dict?.industries)} />
              </Form.Item>
            </Col>
            <Col span={16}>
              <Form.Item name="parentCompCode" label="上级企业 / 核心企业">
                <Select
                  allowClear
                  showSearch
                  filterOption={false}
                  placeholder="输入名称搜索"
                  onSearch={(v) => void searchParents(v)}
                  onFocus={() => void searchParents('')}
                  options={parents}
                />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="contactName" label="联系人">
                <Input maxLength={50} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item
                name="contactPhone"
                label="联系电话"
                rules={[{ pattern: /^[0-9+\-() ]{5,30}$/, message: '联系电话格式不正确' }]}
              >
                <Input maxLength={30} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item
                name="contactEmail"
                label="联系邮箱"
                rules={[{ type: 'email', message: '联系邮箱格式不正确' }]}
              >
                <Input maxLength={100} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="remark" label="备注">
                <Input.TextArea rows={2} maxLength={500} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="files" label="资料文件">
                <FileList />
              </Form.Item>
            </Col>
          </Row>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>
              保存
            </Button>
            <Button onClick={() => navigate(COMPANY_LIST_PATH)}>返回</Button>
          </Space>
        </Form>
      </Card>
    </Spin>
  );
}
