import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import {
  Alert,
  Button,
  Col,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Switch,
  Typography,
  type FormInstance,
  type FormRule,
} from 'antd';
import { STATUS } from '@portal/contract/api';
import { formatCode } from '@portal/contract/format';
import { buttonCode } from '@portal/contract/menus';
import {
  DAY_COUNT_LABELS,
  DAY_COUNTS,
  FEE_COLLECTION_LABELS,
  FEE_COLLECTIONS,
  INTEREST_COLLECTION_LABELS,
  INTEREST_COLLECTIONS,
  METHOD_LABELS,
  METHODS,
  PENALTY_MODE_LABELS,
  PENALTY_MODES,
  type PenaltyMode,
} from '@portal/contract/plan/rule';
import { RULE_STATE_LABELS, RULE_STATES, type RuleView } from '@portal/contract/ruler';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { EditorRecord } from '../../shared/editor/EditorRecord';
import { ApiError } from '../../shared/request/http';
import { Auth } from '../../shared/permission/Auth';
import { useButtons } from '../../shared/permission/use-buttons';
import { showWarning } from '../../shared/ui/feedback';
import type { ScreenProps } from '../../shared/ui/screen';
import { deleteRule, RULER_LIST_PATH, RULER_MENU, rulerKeys, rulerQueries, saveRule } from './api';
import { OrderList } from './OrderList';
import { PlanPreview } from './PlanPreview';
import { DEFAULT_SAMPLE_PRINCIPAL, DEFAULT_SAMPLE_TERM, type SampleLoan } from './plan-preview';
import { checkRule, NEW_RULE_VALUES, viewToForm, type RuleField, type RuleFormValues } from './rule-form';
import { validValues } from '../../shared/ui/valid-values';

const options = <T extends string>(values: readonly T[], labels: Readonly<Record<T, string>>) =>
  values.map((v) => ({ value: v, label: labels[v] }));

/** The penalty value a mode starts from when the user switches to it. */
const PENALTY_DEFAULTS: Record<PenaltyMode, string> = { MULTIPLE: '1.5', DAILY: '0.05' };

/**
 * An antd rule that validates the whole form with the shared zod schema and reports the message of
 * this field: the form and the server's 400 answer say the same words.
 */
function schemaRule(form: FormInstance<RuleFormValues>, field: RuleField): FormRule {
  return {
    validator: () => {
      const check = checkRule(form.getFieldsValue(true) as RuleFormValues);
      const msg = check.ok ? undefined : check.errors[field];
      return msg ? Promise.reject(new Error(msg)) : Promise.resolve();
    },
  };
}

/** The interest-rule editor (new without ?bizCode, edit with it) and its live preview. */
export default function RulerEditorPage(_props: ScreenProps) {
  const [params] = useSearchParams();
  const bizCode = params.get('bizCode') ?? undefined;
  const view = useQuery(rulerQueries.view(bizCode));

  return (
    <EditorRecord
      code={bizCode}
      query={view}
      what="计息规则"
      backTo={RULER_LIST_PATH}
      loadingTestId="ruler-editor-loading"
    >
      {(rule) => (
        <RuleEditor
          // A fresh form for each version read (after a 409 the user reloads the current one).
          key={rule ? `${rule.bizCode}#${rule.version}` : 'new'}
          rule={rule}
          reload={() => void view.refetch()}
        />
      )}
    </EditorRecord>
  );
}

interface RuleEditorProps {
  rule: RuleView | undefined;
  reload: () => void;
}

function RuleEditor({ rule, reload }: RuleEditorProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const buttons = useButtons(RULER_MENU);
  const action = rule ? 'save' : 'add';
  const editable = buttons.has(action);
  const [form] = Form.useForm<RuleFormValues>();
  const [initial] = useState<RuleFormValues>(() => (rule ? viewToForm(rule) : NEW_RULE_VALUES));
  const [values, setValues] = useState<Partial<RuleFormValues>>(initial);
  const [sample, setSample] = useState<SampleLoan>(() => ({
    principal: DEFAULT_SAMPLE_PRINCIPAL,
    startDate: dayjs().format('YYYY-MM-DD'),
    termMonths: DEFAULT_SAMPLE_TERM,
  }));
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const penaltyMode = Form.useWatch('penaltyMode', form) ?? initial.penaltyMode;
  const ids = rule ? { bizCode: rule.bizCode, version: rule.version } : undefined;

  const onValuesChange = (changed: Partial<RuleFormValues>) => {
    if (changed.penaltyMode) form.setFieldValue('penaltyValue', PENALTY_DEFAULTS[changed.penaltyMode]);
    setValues({ ...(form.getFieldsValue(true) as RuleFormValues) });
  };

  const back = () => void navigate(RULER_LIST_PATH);

  const save = async () => {
    if (!(await validValues(form))) return;
    const check = checkRule(form.getFieldsValue(true) as RuleFormValues, ids);
    if (!check.ok) {
      showWarning(check.other[0] ?? Object.values(check.errors)[0] ?? '请检查数据完整性');
      return;
    }
    setSaving(true);
    try {
      const r = await saveRule(check.body);
      if (r.ok) {
        await queryClient.invalidateQueries({ queryKey: rulerKeys.list });
        if (rule) queryClient.removeQueries({ queryKey: rulerKeys.view(rule.bizCode) });
        back();
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // The request layer has shown the server's message; a stale version also stays on screen.
      if (err.status === STATUS.conflict) setConflict(err.message);
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!rule) return;
    try {
      const r = await deleteRule(rule.bizCode);
      if (r.confirmed && r.ok) {
        await queryClient.invalidateQueries({ queryKey: rulerKeys.list });
        back();
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  };

  const rules = (field: RuleField) => [schemaRule(form, field)];
  const pctInput = (max: string, suffix: string) => (
    <InputNumber<string> stringMode min="0" max={max} step="0.01" suffix={suffix} style={{ width: '100%' }} />
  );

  return (
    <div className="ruler-editor" style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <EditorFrame
        testId="ruler-editor"
        title={rule ? '编辑计息规则' : '新增计息规则'}
        tags={rule ? <Typography.Text type="secondary">{formatCode(rule.bizCode)}</Typography.Text> : null}
        backTo={RULER_LIST_PATH}
        actions={
          <>
            {rule ? (
              <Auth code={buttonCode(RULER_MENU, 'delete')}>
                <Button danger onClick={() => void remove()}>
                  删除
                </Button>
              </Auth>
            ) : null}
            <Auth code={buttonCode(RULER_MENU, action)}>
              <Button type="primary" loading={saving} onClick={() => void save()}>
                保存
              </Button>
            </Auth>
          </>
        }
      >
        {conflict ? (
          <Alert
            type="warning"
            showIcon
            title={conflict}
            style={{ marginBottom: 16 }}
            data-testid="ruler-conflict"
            action={
              <Button size="small" onClick={reload}>
                重新加载
              </Button>
            }
          />
        ) : null}
        <Form<RuleFormValues>
          form={form}
          name="ruler"
          layout="vertical"
          initialValues={initial}
          onValuesChange={onValuesChange}
          disabled={!editable}
        >
          <Row gutter={16}>
            <Col xs={24} md={12} xl={8}>
              <Form.Item name="name" label="规则名称" required rules={rules('name')}>
                <Input maxLength={60} showCount placeholder="请输入规则名称" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item name="state" label="状态" required rules={rules('state')}>
                <Radio.Group options={options(RULE_STATES, RULE_STATE_LABELS)} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item
                name="annualRatePct"
                label="年利率"
                required
                rules={rules('annualRatePct')}
                tooltip="按百分比填写，如 8.5 表示年利率 8.5%"
              >
                {pctInput('1000', '%')}
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item name="dayCount" label="计息基准" required rules={rules('dayCount')}>
                <Select options={options(DAY_COUNTS, DAY_COUNT_LABELS)} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item name="method" label="还款方式" required rules={rules('method')}>
                <Select options={options(METHODS, METHOD_LABELS)} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item
                name="interestCollection"
                label="利息收取方式"
                required
                rules={rules('interestCollection')}
              >
                <Radio.Group options={options(INTEREST_COLLECTIONS, INTEREST_COLLECTION_LABELS)} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item
                name="feeRatePct"
                label="服务费率（年化）"
                required
                rules={rules('feeRatePct')}
                tooltip="按百分比填写，按融资本金和计息天数计收"
              >
                {pctInput('1000', '%')}
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item name="feeCollection" label="费用收取方式" required rules={rules('feeCollection')}>
                <Radio.Group options={options(FEE_COLLECTIONS, FEE_COLLECTION_LABELS)} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item name="graceDays" label="宽限期" required rules={rules('graceDays')}>
                <InputNumber<number> min={0} max={365} precision={0} suffix="天" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item name="penaltyMode" label="罚息方式" required rules={rules('penaltyMode')}>
                <Radio.Group options={options(PENALTY_MODES, PENALTY_MODE_LABELS)} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item
                name="penaltyValue"
                label={penaltyMode === 'DAILY' ? '罚息日利率' : '罚息倍数'}
                required
                dependencies={['penaltyMode']}
                rules={rules('penaltyValue')}
                tooltip={
                  penaltyMode === 'DAILY'
                    ? '逾期本金每日按此利率计收罚息（百分比，如 0.05 表示每日 0.05%）'
                    : '罚息利率 = 年利率 × 倍数，按逾期本金逐日计收，不计复利'
                }
              >
                {penaltyMode === 'DAILY' ? (
                  pctInput('1', '%/日')
                ) : (
                  <InputNumber<string>
                    stringMode
                    min="0"
                    max="10"
                    step="0.1"
                    suffix="倍"
                    style={{ width: '100%' }}
                  />
                )}
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item
                name="countBothEnds"
                label="计头又计尾"
                valuePropName="checked"
                rules={rules('countBothEnds')}
                tooltip="开启后到期日当天也计息（仅最后一期多计一天）"
              >
                <Switch checkedChildren="是" unCheckedChildren="否" />
              </Form.Item>
            </Col>
            <Col xs={24} lg={12}>
              <Form.Item
                name="allocationOrder"
                label="还款分配顺序（已到期）"
                required
                rules={rules('allocationOrder')}
                tooltip="来款核销时按此顺序冲抵已到期的各项"
              >
                <OrderList label="还款分配顺序" data-testid="allocation-order" />
              </Form.Item>
            </Col>
            <Col xs={24} lg={12}>
              <Form.Item
                name="inAdvanceOrder"
                label="提前还款分配顺序（未到期）"
                required
                rules={rules('inAdvanceOrder')}
                tooltip="提前还款时按此顺序冲抵未到期的各项"
              >
                <OrderList label="未到期分配顺序" data-testid="in-advance-order" />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="remark" label="备注" rules={rules('remark')}>
                <Input.TextArea maxLength={500} showCount autoSize={{ minRows: 2, maxRows: 5 }} />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </EditorFrame>
      {/* Outside the frame: the sample loan is no input of the rule (no unsaved guard). */}
      <PlanPreview values={values} sample={sample} onSampleChange={setSample} />
    </div>
  );
}
