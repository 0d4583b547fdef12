import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, Select, Space } from 'antd';
import { useLinkage } from '../../shared/geo/linkage';
import type { ScreenProps } from '../../shared/ui/screen';
import { useCompanyDict } from '../../shared/company/api';
import { CHANGE_ROUTES, changeApi, crmChangeQueries } from './api';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { markClean } from '../../shared/editor/unsaved';
import { SaveButtons } from '../../shared/editor/SaveButtons';
import { useChangeSave } from './ChangeFrames';
import { SECTION_TITLES, type Section } from './diff';
import { draftKey, toBody, toForm, useDrafts, type FormValues } from './info-draft';
import { AtInfoFields, OtherInfoFields } from './InfoChangeFields';
import { INFO_KIND } from './kinds';
import { validValues } from '../../shared/ui/valid-values';

/** The editor's two tab routes (one draft). */
const SECTIONS: readonly Section[] = ['at-info', 'other-info'];

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
  const [form] = Form.useForm<FormValues>();
  const customers = useCompanyDict().data ?? [];
  const linkage = useLinkage().data ?? [];
  const { saving, run } = useChangeSave(INFO_KIND);

  // Also with a local draft: the change's state decides whether it may still be edited.
  const existing = useQuery({ ...crmChangeQueries.infoView(bizCode), gcTime: 0 });
  const init = useQuery({
    ...crmChangeQueries.infoInit(compCode),
    enabled: !bizCode && !!compCode && !draft,
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
    if (!(await validValues(form))) return;
    const d = useDrafts.getState().drafts[key];
    if (!d) return;
    await run(
      submit,
      (opts) => changeApi.save(toBody(d, submit), opts),
      (saved) => {
        // The draft of both tab routes was saved: neither holds unsaved input any more.
        for (const tab of SECTIONS) markClean(`${CHANGE_ROUTES.editor}/${tab}`);
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
      },
    );
  };

  const compName = draft?.before.compName;
  const loading = (!!bizCode && !draft && existing.isLoading) || (!!compCode && init.isLoading);
  return (
    <EditorFrame
      testId="info-change-editor"
      title={`${bizCode ? `企业信息变更 ${bizCode}` : '新增企业信息变更'} — ${SECTION_TITLES[section]}`}
      backTo={INFO_KIND.listRoute}
      loading={loading}
      state={bizCode ? existing.data?.state : undefined}
      viewTo={`${CHANGE_ROUTES.view}/after?bizCode=${bizCode}`}
      doc={bizCode ? { docType: INFO_KIND.docType, docCode: bizCode } : undefined}
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
                onClick={() => void navigate(`${CHANGE_ROUTES.view}/after?bizCode=${init.data!.openBizCode}`)}
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
            <SaveButtons loading={saving} save={save}>
              <Button
                onClick={() =>
                  void navigate(
                    `${CHANGE_ROUTES.editor}/${section === 'at-info' ? 'other-info' : 'at-info'}?${params.toString()}`,
                  )
                }
              >
                {section === 'at-info' ? '下一步：其他信息' : '上一步：认证信息'}
              </Button>
            </SaveButtons>
          </Form>
        ) : null}
      </Space>
    </EditorFrame>
  );
}
