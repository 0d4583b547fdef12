import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Input, Radio, Select, Space, Spin } from 'antd';
import {
  COMP_MANAGER_PATHS,
  isValidIdCardNo,
  MANAGER_KIND_LABELS,
  MOBILE_PATTERN,
  type ManagerChangeRow,
  type ManagerChangeSave,
  type ManagerKind,
  type ManagerPerson,
} from '@portal/contract/crm-change';
import { formatDateTime } from '@portal/contract/format';
import { FileList } from '../../shared/files/FileList';
import type { FileItem } from '../../shared/files/files-api';
import { ListPage, type ListPageHandle } from '../../shared/list/ListPage';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import { DocViewFrame } from '../../shared/workflow/DocViewFrame';
import { DOC_STATE_OPTIONS, docActionsColumn, docStateColumn } from '../../shared/workflow/doc-columns';
import type { ScreenProps } from '../../shared/ui/screen';
import { MANAGER_MENU, MANAGER_ROUTES, managerApi, useCustomers } from './api';
import { CandidateSelect, CompanyHistorySection } from './CompanyHistory';

const personText = (p: ManagerPerson | null | undefined) => (p ? `${p.userName}（${p.mobile}）` : '（无）');

/** 管理员变更 list (crm-cor-mg). */
export function ManagerChangeListPage(_props: ScreenProps) {
  const navigate = useNavigate();
  const list = useRef<ListPageHandle>(null);
  const buttons = useButtons(MANAGER_MENU);
  return (
    <div data-testid="manager-change-list">
      <ListPage<ManagerChangeRow>
        ref={list}
        source={COMP_MANAGER_PATHS.list}
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
            <Button type="primary" onClick={() => void navigate(MANAGER_ROUTES.add)}>
              新增
            </Button>
          ) : null
        }
        columns={[
          codeColumn('变更单编号', 'bizCode'),
          { title: '企业名称', dataIndex: 'compName', key: 'compName' },
          {
            title: '原管理员',
            key: 'oldManagerName',
            render: (_: unknown, r: ManagerChangeRow) => r.oldManagerName ?? '（无）',
          },
          { title: '新管理员', dataIndex: 'newManagerName', key: 'newManagerName' },
          {
            title: '新管理员来源',
            key: 'kind',
            render: (_: unknown, r: ManagerChangeRow) => MANAGER_KIND_LABELS[r.kind],
          },
          { title: '经办人', dataIndex: 'createdByName', key: 'createdByName' },
          dateColumn('创建时间', 'createdAt', { withTime: true }),
          docStateColumn<ManagerChangeRow>(),
          docActionsColumn<ManagerChangeRow>({
            buttons,
            view: (r) => void navigate(`${MANAGER_ROUTES.view}?bizCode=${r.bizCode}`),
            edit: (r) => void navigate(`${MANAGER_ROUTES.edit}?bizCode=${r.bizCode}`),
            remove: (r) =>
              void managerApi
                .remove(r.bizCode)
                .then((res) => res.ok && list.current?.reload())
                .catch(() => undefined),
          }),
        ]}
      />
    </div>
  );
}

interface FormValues {
  compCode?: string;
  kind: ManagerKind;
  newUserCode?: string;
  newUserName?: string;
  newMobile?: string;
  newIdCardNo?: string;
  reason?: string;
  files: FileItem[];
}

/** 管理员变更新增 / 编辑 (`?bizCode=` edits a draft or rejected change). */
export function ManagerChangeEditorPage(_props: ScreenProps) {
  const [params, setParams] = useSearchParams();
  const bizCode = params.get('bizCode') ?? '';
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const customers = useCustomers().data ?? [];
  const compCode = Form.useWatch('compCode', form);
  const kind = Form.useWatch('kind', form) ?? 'existing';
  const [saving, setSaving] = useState(false);
  const [version, setVersion] = useState<number | undefined>();

  const existing = useQuery({
    queryKey: ['crmManager', 'view', bizCode],
    queryFn: () => managerApi.view(bizCode),
    enabled: !!bizCode,
    gcTime: 0,
  });
  const init = useQuery({
    queryKey: ['crmManager', 'init', compCode],
    queryFn: () => managerApi.init(compCode!),
    enabled: !!compCode,
    retry: false,
  });

  useEffect(() => {
    if (!bizCode) form.resetFields();
  }, [bizCode, form]);
  useEffect(() => {
    const v = existing.data;
    if (!v) return;
    setVersion(v.version);
    form.setFieldsValue({
      compCode: v.compCode,
      kind: v.kind,
      newUserCode: v.kind === 'existing' ? (v.newManager.userCode ?? undefined) : undefined,
      newUserName: v.kind === 'new' ? v.newManager.userName : undefined,
      newMobile: v.kind === 'new' ? v.newManager.mobile : undefined,
      newIdCardNo: v.kind === 'new' ? (v.newManager.idCardNo ?? undefined) : undefined,
      reason: v.reason,
      files: v.files,
    });
  }, [existing.data, form]);

  const save = async (submit: boolean) => {
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const body: ManagerChangeSave = {
      ...(bizCode ? { bizCode, version } : {}),
      compCode: values.compCode ?? '',
      kind: values.kind,
      ...(values.kind === 'existing'
        ? { newUserCode: values.newUserCode }
        : { newUserName: values.newUserName, newMobile: values.newMobile, newIdCardNo: values.newIdCardNo }),
      reason: values.reason ?? '',
      fileTokens: (values.files ?? []).map((f) => f.fileToken),
      submit,
    };
    setSaving(true);
    try {
      const r = await managerApi.save(body, {
        confirm: `此操作将保存管理员变更${submit ? '并提交审批' : ''}！ 是否继续？`,
      });
      if (!r.ok || !r.data) return;
      setVersion(r.data.version);
      void qc.invalidateQueries({ queryKey: ['list', COMP_MANAGER_PATHS.list] });
      void qc.invalidateQueries({ queryKey: ['crmManager'] });
      if (submit) void navigate(`${MANAGER_ROUTES.view}?bizCode=${r.data.bizCode}`);
      else if (!bizCode) void navigate(`${MANAGER_ROUTES.edit}?bizCode=${r.data.bizCode}`, { replace: true });
      else setParams({ bizCode }, { replace: true });
    } catch {
      // the request layer has warned
    } finally {
      setSaving(false);
    }
  };

  const current = init.data?.current ?? null;
  const chosen = existing.data;
  const selected =
    chosen?.kind === 'existing' && chosen.newManager.userCode
      ? {
          userCode: chosen.newManager.userCode,
          userName: chosen.newManager.userName,
          mobile: chosen.newManager.mobile,
          isManager: false,
        }
      : undefined;
  return (
    <Spin spinning={!!bizCode && existing.isLoading}>
      <Card
        data-testid="manager-change-editor"
        title={bizCode ? `管理员变更 ${bizCode}` : '新增管理员变更'}
        extra={<Button onClick={() => void navigate(MANAGER_ROUTES.list)}>返回</Button>}
      >
        <Form<FormValues>
          form={form}
          name="managerChange"
          layout="vertical"
          initialValues={{ kind: 'existing', files: [] }}
          style={{ maxWidth: 760 }}
        >
          <Form.Item
            name="compCode"
            label="企业客户"
            rules={[{ required: true, message: '企业客户不能为空' }]}
          >
            <Select
              showSearch
              disabled={!!bizCode}
              optionFilterProp="label"
              placeholder="请选择企业"
              options={customers.map((c) => ({ value: c.code, label: c.label }))}
              onChange={() => form.setFieldValue('newUserCode', undefined)}
            />
          </Form.Item>
          {compCode ? (
            <Descriptions size="small" bordered column={1} style={{ marginBottom: 16 }}>
              <Descriptions.Item label="当前管理员">
                <span data-testid="current-manager">{personText(current)}</span>
              </Descriptions.Item>
            </Descriptions>
          ) : null}
          <Form.Item name="kind" label="新管理员来源">
            <Radio.Group
              options={Object.entries(MANAGER_KIND_LABELS).map(([value, label]) => ({ value, label }))}
            />
          </Form.Item>
          {kind === 'existing' ? (
            <Form.Item
              name="newUserCode"
              label="新管理员"
              rules={[{ required: true, message: '请选择新管理员' }]}
            >
              <CandidateSelect compCode={compCode} selected={selected} />
            </Form.Item>
          ) : (
            <>
              <Form.Item
                name="newUserName"
                label="新管理员姓名"
                rules={[{ required: true, whitespace: true, message: '新管理员姓名不能为空' }]}
              >
                <Input maxLength={50} />
              </Form.Item>
              <Form.Item
                name="newMobile"
                label="新管理员手机号"
                rules={[
                  { required: true, message: '新管理员手机号不能为空' },
                  { pattern: MOBILE_PATTERN, message: '新管理员手机号格式不正确' },
                ]}
              >
                <Input maxLength={11} />
              </Form.Item>
              <Form.Item
                name="newIdCardNo"
                label="新管理员身份证号"
                normalize={(v: string) => v?.toUpperCase().trim()}
                rules={[
                  { required: true, message: '新管理员身份证号不能为空' },
                  {
                    validator: async (_, v: string | undefined) => {
                      if (v && !isValidIdCardNo(v)) throw new Error('新管理员身份证号格式不正确');
                    },
                  },
                ]}
              >
                <Input maxLength={18} />
              </Form.Item>
            </>
          )}
          <Form.Item
            name="reason"
            label="变更原因"
            rules={[{ required: true, whitespace: true, message: '变更原因不能为空' }]}
          >
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
          <Form.Item name="files" label="授权委托书" extra="提交审批时必须上传">
            <FileList max={5} />
          </Form.Item>
          <Space>
            <Button type="primary" loading={saving} onClick={() => void save(false)}>
              保存
            </Button>
            <Button loading={saving} onClick={() => void save(true)}>
              保存并提交
            </Button>
          </Space>
        </Form>
      </Card>
    </Spin>
  );
}

/** 管理员变更查看 in the audit view. */
export function ManagerChangeViewPage(_props: ScreenProps) {
  const [params] = useSearchParams();
  const code = params.get('bizCode') ?? '';
  const q = useQuery({
    queryKey: ['crmManager', 'view', code],
    queryFn: () => managerApi.view(code),
    enabled: !!code,
  });
  const v = q.data;
  return (
    <DocViewFrame
      testId="manager-change-view"
      title="管理员变更"
      state={v?.state}
      backTo={MANAGER_ROUTES.list}
      docType="compManagerChange"
      docCode={code}
      menuCode={MANAGER_MENU}
      auditPath={COMP_MANAGER_PATHS.audit}
      unAuditPath={COMP_MANAGER_PATHS.unAudit}
      refresh={['crmManager']}
    >
      {v ? (
        <>
          {v.state === 'pending' ? (
            <Alert
              style={{ marginBottom: 12 }}
              type="info"
              showIcon
              message="审核通过后，原管理员取消管理员身份，新管理员成为该企业的管理员。"
            />
          ) : null}
          <Descriptions size="small" bordered column={2}>
            <Descriptions.Item label="企业客户">{`${v.compName}（${v.compCode}）`}</Descriptions.Item>
            <Descriptions.Item label="新管理员来源">{MANAGER_KIND_LABELS[v.kind]}</Descriptions.Item>
            <Descriptions.Item label="原管理员">{personText(v.oldManager)}</Descriptions.Item>
            <Descriptions.Item label="新管理员">{personText(v.newManager)}</Descriptions.Item>
            <Descriptions.Item label="新管理员身份证号">{v.newManager.idCardNo ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="新管理员用户编号">
              {v.newManager.userCode ?? '审核通过后生成'}
            </Descriptions.Item>
            <Descriptions.Item label="经办人">{v.createdByName ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="创建时间">{formatDateTime(v.createdAt)}</Descriptions.Item>
            <Descriptions.Item label="变更原因" span={2}>
              {v.reason}
            </Descriptions.Item>
            <Descriptions.Item label="授权委托书" span={2}>
              <FileList readOnly value={v.files} />
            </Descriptions.Item>
          </Descriptions>
          <CompanyHistorySection compCode={v.compCode} queryKey="crmManager" />
        </>
      ) : null}
    </DocViewFrame>
  );
}
