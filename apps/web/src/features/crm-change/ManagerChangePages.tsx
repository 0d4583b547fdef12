import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Form, Input, Radio, Select } from 'antd';
import {
  MANAGER_KIND_LABELS,
  managerChangeSaveSchema,
  type ManagerChangeRow,
  type ManagerChangeSave,
  type ManagerKind,
  type ManagerPerson,
} from '@portal/contract/crm-change';
import { formatDateTime } from '@portal/contract/format';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { SaveButtons } from '../../shared/editor/SaveButtons';
import { useFormFill } from '../../shared/editor/use-form-fill';
import { FileList } from '../../shared/files/FileList';
import { FilesField } from '../../shared/files/FilesField';
import { formRules } from '../../shared/form/zod-rule';
import type { FileItem } from '../../shared/files/files-api';
import type { ScreenProps } from '../../shared/ui/screen';
import { useCompanyDict } from '../../shared/company/api';
import { crmChangeQueries, MANAGER_ROUTES, managerApi } from './api';
import { ChangeListFrame, ChangeViewFrame, useChangeSave } from './ChangeFrames';
import { CandidateSelect, CompanyHistorySection } from './CompanyHistory';
import { MANAGER_KIND } from './kinds';
import { validValues } from '../../shared/ui/valid-values';

/** managerChangeSaveSchema's rules; its kind-dependent requirements come from its superRefine. */
const rules = formRules(managerChangeSaveSchema);

const personText = (p: ManagerPerson | null | undefined) => (p ? `${p.userName}（${p.mobile}）` : '（无）');

/** 管理员变更 list (crm-cor-mg). */
export function ManagerChangeListPage(_props: ScreenProps) {
  return (
    <ChangeListFrame<ManagerChangeRow>
      kind={MANAGER_KIND}
      testId="manager-change-list"
      addLabel="新增"
      addTo={MANAGER_ROUTES.add}
      columns={[
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
      ]}
      viewTo={(r) => `${MANAGER_ROUTES.view}?bizCode=${r.bizCode}`}
      editTo={(r) => `${MANAGER_ROUTES.edit}?bizCode=${r.bizCode}`}
      remove={managerApi.remove}
    />
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
  const [form] = Form.useForm<FormValues>();
  const customers = useCompanyDict().data ?? [];
  const compCode = Form.useWatch('compCode', form);
  const kind = Form.useWatch('kind', form) ?? 'existing';
  const { saving, run } = useChangeSave(MANAGER_KIND);
  const [version, setVersion] = useState<number | undefined>();

  const existing = useQuery({ ...crmChangeQueries.managerView(bizCode), gcTime: 0 });
  const init = useQuery(crmChangeQueries.managerInit(compCode));

  // Filled once per record, never from a plain effect (docs/architecture.md "Editors keep their
  // input"): a kept page shown again runs its effects again.
  useFormFill(existing, (v) => {
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
  });

  const save = async (submit: boolean) => {
    const values = await validValues(form);
    if (!values) return;
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
    await run(
      submit,
      (opts) => managerApi.save(body, opts),
      (saved) => {
        setVersion(saved.version);
        if (submit) void navigate(`${MANAGER_ROUTES.view}?bizCode=${saved.bizCode}`);
        else if (!bizCode)
          void navigate(`${MANAGER_ROUTES.edit}?bizCode=${saved.bizCode}`, { replace: true });
        else setParams({ bizCode }, { replace: true });
      },
    );
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
    <EditorFrame
      testId="manager-change-editor"
      title={bizCode ? `管理员变更 ${bizCode}` : '新增管理员变更'}
      backTo={MANAGER_KIND.listRoute}
      state={bizCode ? existing.data?.state : undefined}
      viewTo={`${MANAGER_ROUTES.view}?bizCode=${bizCode}`}
      doc={bizCode ? { docType: MANAGER_KIND.docType, docCode: bizCode } : undefined}
    >
      <Form<FormValues>
        form={form}
        name="managerChange"
        layout="vertical"
        initialValues={{ kind: 'existing', files: [] }}
        style={{ maxWidth: 760 }}
      >
        <Form.Item name="compCode" label="企业客户" rules={rules.compCode}>
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
          <Form.Item name="newUserCode" label="新管理员" required rules={rules.newUserCode}>
            <CandidateSelect compCode={compCode} selected={selected} />
          </Form.Item>
        ) : (
          <>
            <Form.Item name="newUserName" label="新管理员姓名" required rules={rules.newUserName}>
              <Input maxLength={50} />
            </Form.Item>
            <Form.Item name="newMobile" label="新管理员手机号" required rules={rules.newMobile}>
              <Input maxLength={11} />
            </Form.Item>
            <Form.Item
              name="newIdCardNo"
              label="新管理员身份证号"
              normalize={(v: string) => v?.toUpperCase().trim()}
              required
              rules={rules.newIdCardNo}
            >
              <Input maxLength={18} />
            </Form.Item>
          </>
        )}
        <Form.Item name="reason" label="变更原因" rules={rules.reason}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <FilesField name="files" label="授权委托书" extra="提交审批时必须上传" max={5} />
        <SaveButtons loading={saving} save={save} />
      </Form>
    </EditorFrame>
  );
}

/** 管理员变更查看 in the audit view. */
export function ManagerChangeViewPage(_props: ScreenProps) {
  const [params] = useSearchParams();
  const code = params.get('bizCode') ?? '';
  const q = useQuery(crmChangeQueries.managerView(code));
  const v = q.data;
  return (
    <ChangeViewFrame
      kind={MANAGER_KIND}
      testId="manager-change-view"
      docCode={code}
      state={v?.state}
      audit
      editTo={`${MANAGER_ROUTES.edit}?bizCode=${code}`}
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
          <CompanyHistorySection compCode={v.compCode} root={MANAGER_KIND.queryRoot} />
        </>
      ) : null}
    </ChangeViewFrame>
  );
}
