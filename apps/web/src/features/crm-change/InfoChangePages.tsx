import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Cascader,
  Col,
  DatePicker,
  Descriptions,
  Form,
  Input,
  Row,
  Select,
  Space,
  Spin,
  Table,
  Tag,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { create } from 'zustand';
import { COMPANY_INFO_DICT, type CompRole, type CompType, type Industry } from '@portal/contract/company';
import {
  COMP_CHANGE_PATHS,
  CHANGE_FIELD_LABELS,
  type ChangeField,
  type CompanyValues,
  type InfoChangeRow,
  type InfoChangeSave,
  type InfoChangeView,
} from '@portal/contract/crm-change';
import { MONEY_PATTERN } from '@portal/contract/fields';
import { formatDateTime } from '@portal/contract/format';
import { usccProblem } from '@portal/contract/uscc';
import { ListPage, type ListPageHandle } from '../../shared/list/ListPage';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import { DocStateTag } from '../../shared/workflow/AuditView';
import { DocViewFrame } from '../../shared/workflow/DocViewFrame';
import { DOC_STATE_OPTIONS, docActionsColumn, docStateColumn } from '../../shared/workflow/doc-columns';
import type { ScreenProps } from '../../shared/ui/screen';
import { CHANGE_ROUTES, changeApi, INFO_MENU, useCustomers, useLinkage } from './api';
import { CompanyHistorySection } from './CompanyHistory';
import { diffRows, displayValue, SECTION_TITLES, type DiffRow, type Section } from './diff';

const dictOptions = (items: { code: string; label: string }[]) =>
  items.map((d) => ({ value: d.code, label: d.label }));

// ----- list --------------------------------------------------------------------------------------

/** 企业信息变更 list (crm-cor-info). */
export function InfoChangeListPage(_props: ScreenProps) {
  const navigate = useNavigate();
  const list = useRef<ListPageHandle>(null);
  const buttons = useButtons(INFO_MENU);
  // Back on the list, unsaved edits of the editor's tabs are dropped: an editor opened from here
  // starts from the server's values.
  useEffect(() => useDrafts.setState({ drafts: {} }), []);
  return (
    <div data-testid="info-change-list">
      <ListPage<InfoChangeRow>
        ref={list}
        source={COMP_CHANGE_PATHS.list}
        rowKey="bizCode"
        filters={
          <>
            <Form.Item name="compName" label="企业名称">
              <Input allowClear />
            </Form.Item>
            <Form.Item name="state" label="审核状态">
              <Select allowClear style={{ width: 120 }} options={DOC_STATE_OPTIONS} />
            </Form.Item>
          </>
        }
        toolbar={
          buttons.has('add') ? (
            <Button type="primary" onClick={() => void navigate(`${CHANGE_ROUTES.editor}/at-info`)}>
              新增变更
            </Button>
          ) : null
        }
        columns={[
          codeColumn('变更单编号', 'bizCode'),
          { title: '企业名称', dataIndex: 'compName', key: 'compName' },
          {
            title: '变更项',
            key: 'changedFields',
            render: (_: unknown, r: InfoChangeRow) =>
              r.changedFields.map((f: ChangeField) => CHANGE_FIELD_LABELS[f]).join('、'),
          },
          { title: '经办人', dataIndex: 'createdByName', key: 'createdByName' },
          dateColumn('创建时间', 'createdAt', { withTime: true }),
          docStateColumn<InfoChangeRow>(),
          docActionsColumn<InfoChangeRow>({
            buttons,
            view: (r) => void navigate(`${CHANGE_ROUTES.view}/after?bizCode=${r.bizCode}`),
            edit: (r) => void navigate(`${CHANGE_ROUTES.editor}/at-info?bizCode=${r.bizCode}`),
            remove: (r) =>
              void changeApi
                .remove(r.bizCode)
                .then((res) => res.ok && list.current?.reload())
                .catch(() => undefined),
          }),
        ]}
      />
    </div>
  );
}

// ----- editor ------------------------------------------------------------------------------------

interface FormValues {
  compName: string;
  usccCode: string;
  legalPerson: string;
  regCapital: string;
  establishDate: Dayjs | null;
  compType: CompType;
  region: string[];
  address?: string;
  industry?: Industry;
  roles: CompRole[];
  contactName?: string;
  contactPhone?: string;
  contactEmail?: string;
  remark?: string;
}

interface Draft {
  compCode: string;
  bizCode?: string;
  version?: number;
  reason: string;
  before: CompanyValues;
  values: FormValues;
}

/** The draft being edited survives switching between the 认证信息 and 其他信息 tabs (two routes). */
const useDrafts = create<{ drafts: Record<string, Draft>; put(key: string, d: Draft): void }>()((set) => ({
  drafts: {},
  put: (key, d) => set((s) => ({ drafts: { ...s.drafts, [key]: d } })),
}));

const draftKey = (bizCode: string, compCode: string) => (bizCode ? `b:${bizCode}` : `c:${compCode}`);

function toForm(v: CompanyValues): FormValues {
  return {
    compName: v.compName,
    usccCode: v.usccCode,
    legalPerson: v.legalPerson,
    regCapital: v.regCapital,
    establishDate: v.establishDate ? dayjs(v.establishDate) : null,
    compType: v.compType,
    region: [v.provinceCode, v.cityCode, v.areaCode].filter((c): c is string => !!c),
    address: v.address ?? undefined,
    industry: v.industry ?? undefined,
    roles: v.roles,
    contactName: v.contactName ?? undefined,
    contactPhone: v.contactPhone ?? undefined,
    contactEmail: v.contactEmail ?? undefined,
    remark: v.remark ?? undefined,
  };
}

function toValues(f: FormValues): CompanyValues {
  return {
    compName: f.compName,
    usccCode: f.usccCode,
    legalPerson: f.legalPerson,
    regCapital: f.regCapital,
    establishDate: f.establishDate ? f.establishDate.format('YYYY-MM-DD') : null,
    compType: f.compType,
    provinceCode: f.region[0] ?? null,
    cityCode: f.region[1] ?? null,
    areaCode: f.region[2] ?? null,
    address: f.address ?? null,
    industry: f.industry ?? null,
    roles: f.roles,
    contactName: f.contactName ?? null,
    contactPhone: f.contactPhone ?? null,
    contactEmail: f.contactEmail ?? null,
    remark: f.remark ?? null,
  };
}

function toBody(d: Draft, submit: boolean): InfoChangeSave {
  const v = toValues(d.values);
  return {
    ...(d.bizCode ? { bizCode: d.bizCode, version: d.version } : {}),
    compCode: d.compCode,
    reason: d.reason,
    ...v,
    provinceCode: v.provinceCode ?? '',
    submit,
  };
}

/** 原值 under a field whose value differs from the customer's (snapshot) value. */
function OldValue({ draft, field }: { draft: Draft | undefined; field: ChangeField }) {
  if (!draft) return null;
  const now = toValues(draft.values);
  const before = displayValue(field, draft.before);
  if (displayValue(field, now) === before) return null;
  return <span style={{ color: '#d46b08' }}>原值：{before || '（空）'}</span>;
}

/**
 * 企业信息变更编辑: tabs at-info 认证信息 and other-info 其他信息 (two routes of one draft). A new
 * change starts from the customer's current values (`?compCode=` or the picker); `?bizCode=` edits
 * a draft or rejected change.
 */
export function InfoChangeEditorPage({ meta }: ScreenProps) {
  const section: Section = meta.path.endsWith('/other-info') ? 'other-info' : 'at-info';
  const [params, setParams] = useSearchParams();
  const bizCode = params.get('bizCode') ?? '';
  const compCode = params.get('compCode') ?? '';
  const key = draftKey(bizCode, compCode);
  const draft = useDrafts((s) => s.drafts[key]);
  const put = useDrafts((s) => s.put);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const customers = useCustomers().data ?? [];
  const linkage = useLinkage().data ?? [];
  const [saving, setSaving] = useState(false);

  const existing = useQuery({
    queryKey: ['crmChange', 'view', bizCode],
    queryFn: () => changeApi.view(bizCode),
    enabled: !!bizCode && !draft,
    gcTime: 0,
  });
  const init = useQuery({
    queryKey: ['crmChange', 'init', compCode],
    queryFn: () => changeApi.init(compCode),
    enabled: !bizCode && !!compCode && !draft,
    gcTime: 0,
    retry: false,
  });

  useEffect(() => {
    const v = existing.data;
    if (v && !useDrafts.getState().drafts[key])
      put(key, {
        compCode: v.compCode,
        bizCode: v.bizCode,
        version: v.version,
        reason: v.reason ?? '',
        before: v.before,
        values: toForm(v.after),
      });
  }, [existing.data, key, put]);
  useEffect(() => {
    const i = init.data;
    if (i && !i.openBizCode && !useDrafts.getState().drafts[key])
      put(key, { compCode: i.compCode, reason: '', before: i.values, values: toForm(i.values) });
  }, [init.data, key, put]);
  useEffect(() => {
    if (draft) form.setFieldsValue(draft.values);
    // Only when the draft first appears (or another draft is opened).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, !!draft, form]);

  const onValuesChange = (_: Partial<FormValues>, all: FormValues) => {
    const d = useDrafts.getState().drafts[key];
    if (d) put(key, { ...d, values: { ...d.values, ...all } });
  };

  const save = async (submit: boolean) => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    const d = useDrafts.getState().drafts[key];
    if (!d) return;
    setSaving(true);
    try {
      const r = await changeApi.save(toBody(d, submit), {
        confirm: `此操作将保存企业信息变更${submit ? '并提交审批' : ''}！ 是否继续？`,
      });
      if (!r.ok || !r.data) return;
      const saved = r.data;
      void qc.invalidateQueries({ queryKey: ['list', COMP_CHANGE_PATHS.list] });
      void qc.invalidateQueries({ queryKey: ['crmChange'] });
      const next = { ...d, bizCode: saved.bizCode, version: saved.version };
      put(draftKey(saved.bizCode, ''), next);
      if (submit) {
        // Leave no stale draft behind for the next edit of this change.
        useDrafts.setState((s) => {
          const { [draftKey(saved.bizCode, '')]: _gone, [key]: _old, ...rest } = s.drafts;
          return { drafts: rest };
        });
        void navigate(`${CHANGE_ROUTES.view}/after?bizCode=${saved.bizCode}`);
      } else if (!bizCode) setParams({ bizCode: saved.bizCode }, { replace: true });
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };

  const compName = draft?.before.compName;
  const loading = (!!bizCode && existing.isLoading) || (!!compCode && init.isLoading);
  return (
    <Spin spinning={loading}>
      <Card
        data-testid="info-change-editor"
        title={`${bizCode ? `企业信息变更 ${bizCode}` : '新增企业信息变更'} — ${SECTION_TITLES[section]}`}
        extra={<Button onClick={() => void navigate(CHANGE_ROUTES.list)}>返回</Button>}
      >
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          {bizCode ? (
            <Descriptions size="small" bordered column={2}>
              <Descriptions.Item label="企业客户">{compName}</Descriptions.Item>
              <Descriptions.Item label="企业编号">{draft?.compCode}</Descriptions.Item>
            </Descriptions>
          ) : (
            <Space wrap>
              <span>企业客户：</span>
              <Select
                aria-label="企业客户"
                data-testid="change-customer"
                style={{ width: 360 }}
                showSearch
                optionFilterProp="label"
                placeholder="请选择要变更信息的企业"
                value={compCode || undefined}
                options={customers.map((c) => ({ value: c.code, label: c.label }))}
                onChange={(v: string) => setParams({ compCode: v }, { replace: true })}
              />
            </Space>
          )}
          {init.data?.openBizCode ? (
            <Alert
              type="warning"
              showIcon
              message={`该企业已有未完成的信息变更单 ${init.data.openBizCode}，请先处理该变更单`}
              action={
                <Button
                  size="small"
                  onClick={() =>
                    void navigate(`${CHANGE_ROUTES.view}/after?bizCode=${init.data!.openBizCode}`)
                  }
                >
                  查看
                </Button>
              }
            />
          ) : null}
          {draft ? (
            <Form<FormValues>
              form={form}
              layout="vertical"
              name={`infoChange-${section}`}
              onValuesChange={onValuesChange}
            >
              {section === 'at-info' ? (
                <AtInfoFields draft={draft} linkage={linkage} />
              ) : (
                <OtherInfoFields draft={draft} />
              )}
              <Form.Item label="变更原因">
                <Input.TextArea
                  aria-label="变更原因"
                  rows={2}
                  maxLength={500}
                  value={draft.reason}
                  onChange={(e) => put(key, { ...draft, reason: e.target.value })}
                />
              </Form.Item>
              <Space>
                <Button type="primary" loading={saving} onClick={() => void save(false)}>
                  保存
                </Button>
                <Button loading={saving} onClick={() => void save(true)}>
                  保存并提交
                </Button>
                <Button
                  onClick={() =>
                    void navigate(
                      `${CHANGE_ROUTES.editor}/${section === 'at-info' ? 'other-info' : 'at-info'}?${params.toString()}`,
                    )
                  }
                >
                  {section === 'at-info' ? '下一步：其他信息' : '上一步：认证信息'}
                </Button>
              </Space>
            </Form>
          ) : null}
        </Space>
      </Card>
    </Spin>
  );
}

function AtInfoFields({ draft, linkage }: { draft: Draft; linkage: { value: string; label: string }[] }) {
  const old = (field: ChangeField) => <OldValue draft={draft} field={field} />;
  return (
    <Row gutter={24}>
      <Col span={12}>
        <Form.Item
          name="compName"
          label="企业名称"
          extra={old('compName')}
          rules={[{ required: true, whitespace: true, message: '企业名称不能为空' }, { max: 100 }]}
        >
          <Input maxLength={100} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item
          name="usccCode"
          label="统一社会信用代码"
          extra={old('usccCode')}
          normalize={(v: string) => v?.toUpperCase().trim()}
          rules={[
            { required: true, message: '统一社会信用代码不能为空' },
            {
              validator: async (_, v: string | undefined) => {
                const problem = v ? usccProblem(v) : null;
                if (problem) throw new Error(problem);
              },
            },
          ]}
        >
          <Input maxLength={18} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item
          name="legalPerson"
          label="法定代表人"
          extra={old('legalPerson')}
          rules={[{ required: true, whitespace: true, message: '法定代表人不能为空' }]}
        >
          <Input maxLength={50} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item
          name="regCapital"
          label="注册资本（元）"
          extra={old('regCapital')}
          rules={[
            { required: true, message: '注册资本不能为空' },
            { pattern: MONEY_PATTERN, message: '注册资本必须是最多两位小数的金额' },
            { pattern: /^[^-]/, message: '注册资本不能为负数' },
          ]}
        >
          <Input />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="establishDate" label="成立日期" extra={old('establishDate')}>
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item
          name="compType"
          label="企业类型"
          extra={old('compType')}
          rules={[{ required: true, message: '企业类型不能为空' }]}
        >
          <Select options={dictOptions(COMPANY_INFO_DICT.compTypes)} />
        </Form.Item>
      </Col>
      <Col span={16}>
        <Form.Item
          name="region"
          label="所在地区"
          rules={[{ required: true, type: 'array', min: 1, message: '所在省份不能为空' }]}
        >
          <Cascader options={linkage} changeOnSelect placeholder="省 / 市 / 区" showSearch />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name="address" label="详细地址" extra={old('address')}>
          <Input maxLength={200} />
        </Form.Item>
      </Col>
    </Row>
  );
}

function OtherInfoFields({ draft }: { draft: Draft }) {
  const old = (field: ChangeField) => <OldValue draft={draft} field={field} />;
  return (
    <Row gutter={24}>
      <Col span={8}>
        <Form.Item name="industry" label="所属行业" extra={old('industry')}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            options={dictOptions(COMPANY_INFO_DICT.industries)}
          />
        </Form.Item>
      </Col>
      <Col span={16}>
        <Form.Item
          name="roles"
          label="客户角色"
          extra={old('roles')}
          rules={[{ required: true, type: 'array', min: 1, message: '客户角色不能为空' }]}
        >
          <Select mode="multiple" options={dictOptions(COMPANY_INFO_DICT.roles)} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="contactName" label="联系人" extra={old('contactName')}>
          <Input maxLength={50} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item
          name="contactPhone"
          label="联系电话"
          extra={old('contactPhone')}
          rules={[{ pattern: /^[0-9+\-() ]{5,30}$/, message: '联系电话格式不正确' }]}
        >
          <Input maxLength={30} />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item
          name="contactEmail"
          label="联系邮箱"
          extra={old('contactEmail')}
          rules={[{ type: 'email', message: '联系邮箱格式不正确' }]}
        >
          <Input maxLength={100} />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name="remark" label="备注" extra={old('remark')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Col>
    </Row>
  );
}

// ----- view --------------------------------------------------------------------------------------

const BEFORE_STYLE = { background: '#fff1f0', textDecoration: 'line-through', color: '#8c8c8c' } as const;
const AFTER_STYLE = { background: '#f6ffed', fontWeight: 600 } as const;

/** Before and after side by side, changed rows highlighted (from the snapshot, so also after approval). */
export function ChangeDiffTable({ view }: { view: InfoChangeView }) {
  const rows = diffRows(view);
  return (
    <Table<DiffRow>
      data-testid="change-diff"
      size="small"
      rowKey="key"
      pagination={false}
      dataSource={rows}
      onRow={(r) => ({ 'data-changed': r.changed ? 'true' : 'false', 'data-field': r.key }) as object}
      columns={[
        {
          title: '分类',
          key: 'section',
          width: 100,
          render: (_: unknown, r: DiffRow) => SECTION_TITLES[r.section],
        },
        {
          title: '字段',
          key: 'label',
          width: 160,
          render: (_: unknown, r: DiffRow) => (
            <Space size={4}>
              {r.label}
              {r.changed ? <Tag color="red">已变更</Tag> : null}
            </Space>
          ),
        },
        {
          title: '变更前',
          key: 'before',
          render: (_: unknown, r: DiffRow) => r.before || '—',
          onCell: (r: DiffRow) => ({ style: r.changed ? BEFORE_STYLE : undefined }),
        },
        {
          title: '变更后',
          key: 'after',
          render: (_: unknown, r: DiffRow) => r.after || '—',
          onCell: (r: DiffRow) => ({ style: r.changed ? AFTER_STYLE : undefined }),
        },
      ]}
    />
  );
}

function ChangeHead({ view }: { view: InfoChangeView }) {
  return (
    <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }}>
      <Descriptions.Item label="企业客户">{`${view.compName}（${view.compCode}）`}</Descriptions.Item>
      <Descriptions.Item label="经办人">{view.createdByName ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="创建时间">{formatDateTime(view.createdAt)}</Descriptions.Item>
      <Descriptions.Item label="变更原因" span={3}>
        {view.reason ?? '—'}
      </Descriptions.Item>
    </Descriptions>
  );
}

/**
 * 企业信息变更查看: tab after 变更信息 (before / after) and tab reviewInformation 审核信息 (the audit
 * view with 审批记录, 流程图, 传阅 and 流程审批).
 */
export function InfoChangeViewPage({ meta }: ScreenProps) {
  const review = meta.path.endsWith('/reviewInformation');
  const [params] = useSearchParams();
  const code = params.get('bizCode') ?? '';
  const navigate = useNavigate();
  const q = useQuery({
    queryKey: ['crmChange', 'view', code],
    queryFn: () => changeApi.view(code),
    enabled: !!code,
  });
  const v = q.data;
  if (review)
    return (
      <DocViewFrame
        testId="info-change-view"
        title="企业信息变更"
        state={v?.state}
        backTo={CHANGE_ROUTES.list}
        docType="compInfoChange"
        docCode={code}
        menuCode={INFO_MENU}
        auditPath={COMP_CHANGE_PATHS.audit}
        unAuditPath={COMP_CHANGE_PATHS.unAudit}
        refresh={['crmChange']}
      >
        {v ? (
          <>
            <ChangeHead view={v} />
            <ChangeDiffTable view={v} />
            <CompanyHistorySection compCode={v.compCode} queryKey="crmChange" />
          </>
        ) : null}
      </DocViewFrame>
    );
  return (
    <Card
      data-testid="info-change-view"
      title={
        <Space>
          <span>企业信息变更 {code}</span>
          {v ? <DocStateTag state={v.state} /> : null}
        </Space>
      }
      extra={
        <Space>
          <Button onClick={() => void navigate(CHANGE_ROUTES.list)}>返回</Button>
        </Space>
      }
    >
      <Spin spinning={q.isLoading}>
        {v ? (
          <>
            <ChangeHead view={v} />
            <ChangeDiffTable view={v} />
            <CompanyHistorySection compCode={v.compCode} queryKey="crmChange" />
          </>
        ) : null}
      </Spin>
    </Card>
  );
}
