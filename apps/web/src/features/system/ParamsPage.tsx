import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Descriptions,
  Form,
  Image,
  Input,
  InputNumber,
  Space,
  Typography,
  Upload,
  message,
} from 'antd';
import { formatDateTime } from '@portal/contract/format';
import {
  PARAM_BOUNDS,
  PARAM_LABELS as L,
  PROVISION_RATE_KEYS,
  SEAL_MAX_BYTES,
  SYSPARAM_MENU,
  SYSPARAM_PATHS,
  sysParamsSchema,
  type SysParams,
  type SysParamsView,
} from '@portal/contract/sysparams';
import { BIZDATE_MENU, BIZDATE_SOURCE_LABELS } from '@portal/contract/bizdate';
import { useBizDate } from '../../shared/bizdate/api';
import { BizDateMove } from '../../shared/bizdate/BizDateMove';
import { useFormFill } from '../../shared/editor/use-form-fill';
import { useButtons } from '../../shared/permission/use-buttons';
import { update } from '../../shared/request/http';
import type { ScreenProps } from '../../shared/ui/screen';
import { usePageFormName } from '../../shared/form/form-name';
import { systemKeys, systemQueries } from './api';

type Values = Partial<Record<keyof SysParams, string | number | null | undefined>>;

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

const bounds = (k: keyof typeof PARAM_BOUNDS) => `${PARAM_BOUNDS[k][0]}–${PARAM_BOUNDS[k][1]}`;

/**
 * 参数设置 (docs/operations.md "Settings an administrator changes"): validated here with the
 * server's own schema, confirmed, saved; every server applies them without a restart.
 */
export default function ParamsPage(_props: ScreenProps) {
  const qc = useQueryClient();
  const buttons = useButtons(SYSPARAM_MENU);
  const bizButtons = useButtons(BIZDATE_MENU);
  const bizDate = useBizDate();
  const [form] = Form.useForm<Values>();
  const formName = usePageFormName('params');
  const view = useQuery(systemQueries.params());
  const seal = Form.useWatch('companySeal', form);

  // Not a plain effect: the kept tab shown again would put the saved values back over typed ones.
  useFormFill(view, (v) => form.setFieldsValue(v.params));

  const save = async () => {
    const values = form.getFieldsValue(true);
    const parsed = sysParamsSchema.safeParse(values);
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((i) => ({ name: i.path[0] as keyof SysParams, errors: [i.message] })),
      );
      // The seal's item is hidden: its error is said aloud.
      const sealIssue = parsed.error.issues.find((i) => i.path[0] === 'companySeal');
      if (sealIssue) void message.warning(sealIssue.message);
      return;
    }
    const r = await update<SysParamsView>(SYSPARAM_PATHS.save, parsed.data, {
      confirm: '此操作将修改系统参数，保存后立即对所有服务器生效！ 是否继续？',
    }).catch(() => null);
    if (r?.ok) void qc.invalidateQueries({ queryKey: systemKeys.params });
  };

  const editable = buttons.has('save');
  const minutes = (
    name:
      | 'sessionIdleMinutes'
      | 'sessionAbsoluteMinutes'
      | 'uploadLimitMb'
      | 'logRetentionDays'
      | 'classWatchMaxDays'
      | 'classSubstandardMaxDays'
      | 'classDoubtfulMaxDays'
      | 'collectBeforeFirstDays'
      | 'collectBeforeLastDays'
      | 'collectAfterFirstDays'
      | 'collectAfterEveryDays'
      | 'guaranteeRemindDays'
      | 'collateralValuationMaxDays',
    unit: string,
  ) => (
    <Form.Item name={name} label={L[name]} extra={`${bounds(name)} ${unit}`}>
      <InputNumber aria-label={L[name]} precision={0} style={{ width: 200 }} disabled={!editable} />
    </Form.Item>
  );

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Card title="营业日" size="small" data-testid="params-bizdate">
        <Descriptions size="small" bordered column={3}>
          <Descriptions.Item label="当前营业日">
            <span data-testid="params-bizdate-current">{bizDate.data?.businessDate ?? ''}</span>
          </Descriptions.Item>
          <Descriptions.Item label="来源">
            {bizDate.data ? BIZDATE_SOURCE_LABELS[bizDate.data.source] : ''}
          </Descriptions.Item>
          <Descriptions.Item label="最近记账日">{bizDate.data?.lastPostingDate ?? '—'}</Descriptions.Item>
        </Descriptions>
        {/* The same route, rules, confirmation and audit as 营业日与日终 (docs/business-date.md). */}
        {editable || bizButtons.has('save') ? <BizDateMove /> : null}
      </Card>
      <Card title="参数设置" loading={view.isLoading} data-testid="params-page">
        <Form
          form={form}
          name={formName}
          layout="horizontal"
          labelCol={{ span: 6 }}
          wrapperCol={{ span: 14 }}
          style={{ maxWidth: 900 }}
        >
          <Typography.Title level={5}>会话与上传</Typography.Title>
          {minutes('sessionIdleMinutes', '分钟')}
          {minutes('sessionAbsoluteMinutes', '分钟')}
          {minutes('uploadLimitMb', 'MB')}
          <Typography.Title level={5}>本公司（打印模板中的甲方）</Typography.Title>
          <Form.Item name="companyName" label={L.companyName} required>
            <Input aria-label={L.companyName} maxLength={100} disabled={!editable} />
          </Form.Item>
          <Form.Item name="companyAddress" label={L.companyAddress}>
            <Input aria-label={L.companyAddress} maxLength={200} disabled={!editable} />
          </Form.Item>
          <Form.Item name="companyRegNo" label={L.companyRegNo}>
            <Input aria-label={L.companyRegNo} maxLength={18} disabled={!editable} />
          </Form.Item>
          <Form.Item
            name="companySignatory"
            label={L.companySignatory}
            extra="打印在放款通知书、还款通知书、合同、对账单等落款的签字处；打印时以{{companySignatory}}引用"
          >
            <Input aria-label={L.companySignatory} maxLength={50} disabled={!editable} />
          </Form.Item>
          {/* The value lives in a hidden item; the row below shows and replaces it. */}
          <Form.Item name="companySeal" hidden>
            <Input />
          </Form.Item>
          <Form.Item
            label={L.companySeal}
            extra={`PNG或JPEG，不超过${SEAL_MAX_BYTES / 1024}KB；打印时以{{companySeal}}引用`}
          >
            <Space align="start">
              {typeof seal === 'string' && seal ? (
                <Image src={seal} width={96} alt="公章" />
              ) : (
                <span>未设置</span>
              )}
              {editable ? (
                <Upload
                  accept="image/png,image/jpeg"
                  showUploadList={false}
                  beforeUpload={(file) => {
                    void readDataUrl(file).then((url) => form.setFieldsValue({ companySeal: url }));
                    return false;
                  }}
                >
                  <Button>选择图片</Button>
                </Upload>
              ) : null}
              {editable && seal ? (
                <Button onClick={() => form.setFieldsValue({ companySeal: null })}>清除</Button>
              ) : null}
            </Space>
          </Form.Item>
          <Typography.Title level={5}>日志</Typography.Title>
          {minutes('logRetentionDays', '天（日终清理更早的操作日志与登录日志）')}
          {/* docs/classification.md "Proposal": each bound is the last overdue day of its class. */}
          <Typography.Title level={5}>五级分类（日终按逾期天数建议分类）</Typography.Title>
          {minutes('classWatchMaxDays', '天（逾期1天至此为关注）')}
          {minutes('classSubstandardMaxDays', '天（至此为次级）')}
          {minutes('classDoubtfulMaxDays', '天（至此为可疑，超过为损失）')}
          {/* docs/accounting.md "Provisioning": the month end holds 本金余额 × the class's rate. */}
          <Typography.Title level={5}>减值准备（月末按五级分类计提坏账准备）</Typography.Title>
          {PROVISION_RATE_KEYS.map((k) => (
            <Form.Item key={k} name={k} label={L[k]} extra="0至100，最多两位小数">
              <Input aria-label={L[k]} suffix="%" style={{ width: 200 }} disabled={!editable} />
            </Form.Item>
          ))}
          {/* docs/collections.md "Reminders": sent by the day-end to the contract's manager. */}
          <Typography.Title level={5}>催收提醒（日终发送到合同业务经理的消息中心）</Typography.Title>
          {minutes('collectBeforeFirstDays', '天（到期前第一次提醒，默认T-7）')}
          {minutes('collectBeforeLastDays', '天（到期前最后一次提醒，默认T-1）')}
          {minutes('collectAfterFirstDays', '天（逾期后第一次提醒，默认T+1）')}
          {minutes('collectAfterEveryDays', '天（此后每隔几天提醒一次，默认7天）')}
          {/* docs/credit.md "Reminders": sent by the day-end to the credit's maker. */}
          <Typography.Title level={5}>担保到期提醒（日终发送到授信经办人的消息中心）</Typography.Title>
          {minutes('guaranteeRemindDays', '天（担保到期前几天开始提醒，默认30天）')}
          {minutes('collateralValuationMaxDays', '天（抵质押物评估超过此天数提醒重估，默认365天）')}
          {editable ? (
            <Form.Item wrapperCol={{ offset: 6 }}>
              <Button type="primary" onClick={() => void save()}>
                保存
              </Button>
            </Form.Item>
          ) : null}
          {view.data?.updatedAt ? (
            <Typography.Text type="secondary">
              最近修改：{formatDateTime(view.data.updatedAt)} {view.data.updatedByName ?? ''}
            </Typography.Text>
          ) : null}
        </Form>
      </Card>
    </Space>
  );
}
