import { useDeferredValue, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Form, Input, Row, Select, Space, Tag, Tooltip, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import {
  BIZ_TYPE_DOC_LABELS,
  BIZ_TYPE_LABELS,
  BIZ_TYPES,
  PRINT_MENU,
  TEMPLATE_STATE_LABELS,
  vocabularyOf,
  type BizType,
  type PrintField,
  type TemplateView,
  templateSaveSchema,
} from '@portal/contract/print';
import { sampleData } from '@portal/contract/print/data';
import { LANDSCAPE_TYPES, printPage } from '@portal/contract/print/page';
import { renderTemplate, unknownPlaceholders } from '@portal/contract/print/template';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { EditorRecord } from '../../shared/editor/EditorRecord';
import { markDirty } from '../../shared/editor/unsaved';
import { normalizePath } from '../../shared/routing/route-table';
import { fieldRules } from '../../shared/form/zod-rule';
import { ApiError } from '../../shared/request/http';
import { useButtons } from '../../shared/permission/use-buttons';
import { previewDocument } from '../../shared/print/api';
import type { ScreenProps } from '../../shared/ui/screen';
import { PRINT_LIST_PATH, printKeys, printQueries, saveTemplate } from './api';
import { validValues } from '../../shared/ui/valid-values';
import { usePageFormName } from '../../shared/form/form-name';

interface FormValues {
  name: string;
  bizType: BizType;
  coreCompCode?: string;
  content: string;
  remark?: string;
}

const rules = fieldRules(templateSaveSchema);
const typeOptions = BIZ_TYPES.map((t) => ({ value: t, label: BIZ_TYPE_LABELS[t] }));

/** A starting body for a new template: a title and one field, so the preview shows at once. */
const NEW_CONTENT = '<h1>标题</h1>\n<p>合同号：{{contractNo}}</p>\n';

/** The print-template editor with its placeholder catalogue and a live preview. */
export default function PrintEditorPage(_props: ScreenProps) {
  const [params] = useSearchParams();
  const bizCode = params.get('bizCode') ?? undefined;
  const view = useQuery(printQueries.view(bizCode));
  return (
    <EditorRecord code={bizCode} query={view} what="打印模板" backTo={PRINT_LIST_PATH}>
      {(template) => (
        <TemplateEditor
          key={template ? `${template.bizCode}#${template.version}` : 'new'}
          template={template}
        />
      )}
    </EditorRecord>
  );
}

/** The template rendered with the catalogue's sample values, or what stops it from rendering. */
function usePreview(bizType: BizType, content: string) {
  return useMemo(() => {
    try {
      const unknown = unknownPlaceholders(content, vocabularyOf(bizType));
      const html = printPage('预览', renderTemplate(content, sampleData(bizType)), null, {
        landscape: LANDSCAPE_TYPES.has(bizType),
      });
      return {
        html,
        problem: unknown.length ? `未知占位符：${unknown.map((n) => `{{${n}}}`).join('、')}` : null,
      };
    } catch (err) {
      return { html: null, problem: err instanceof Error ? err.message : String(err) };
    }
  }, [bizType, content]);
}

function TemplateEditor({ template }: { template: TemplateView | undefined }) {
  const navigate = useNavigate();
  const path = normalizePath(useLocation().pathname);
  const qc = useQueryClient();
  const buttons = useButtons(PRINT_MENU);
  const canSave = buttons.has(template ? 'save' : 'add');
  const [form] = Form.useForm<FormValues>();
  const formName = usePageFormName('template');
  const editor = useRef<TextAreaRef>(null);
  const [docCode, setDocCode] = useState('');
  const bizType = Form.useWatch('bizType', form) ?? template?.bizType ?? 'contract';
  const content = Form.useWatch('content', form) ?? template?.content ?? NEW_CONTENT;
  const preview = usePreview(bizType, useDeferredValue(content));
  const catalogue = useQuery(printQueries.catalogue(bizType));
  const cores = useQuery(printQueries.cores());

  /** Puts a placeholder where the cursor is. */
  const insert = (text: string) => {
    if (!canSave) return;
    const area = editor.current?.resizableTextArea?.textArea;
    const current = (form.getFieldValue('content') as string | undefined) ?? '';
    const start = area?.selectionStart ?? current.length;
    const end = area?.selectionEnd ?? current.length;
    form.setFieldValue('content', current.slice(0, start) + text + current.slice(end));
    // A value set by code is no field change to the frame's guard: this one is the user's input.
    markDirty(path);
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + text.length, start + text.length);
    });
  };

  const save = async () => {
    // A field in error shows its message; there is nothing else to do.
    const values = await validValues(form);
    if (!values) return;
    try {
      const r = await saveTemplate({
        ...values,
        ...(template ? { bizCode: template.bizCode, version: template.version } : {}),
      });
      if (r.ok) {
        // Back at once; the template list refetches on its own (awaiting every list of every open
        // tab here held the navigation for as long as the slowest of them took).
        void qc.invalidateQueries({ queryKey: printKeys.list });
        void navigate(PRINT_LIST_PATH);
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  };

  const previewWithDocument = async () => {
    try {
      await previewDocument({ bizType, docCode: docCode.trim(), content });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  };

  const fieldTags = (fields: readonly PrintField[]) =>
    fields.map((f) => (
      <Tooltip key={f.key} title={`{{${f.key}}}`}>
        <Tag
          className="print-placeholder"
          onClick={() => insert(`{{${f.key}}}`)}
          style={{ cursor: 'pointer' }}
        >
          {f.label}
        </Tag>
      </Tooltip>
    ));

  return (
    <EditorFrame
      testId="print-editor"
      title={template ? `打印模板 ${template.bizCode}` : '新增打印模板'}
      tags={
        template ? (
          <>
            <Tag color={template.state === 'enabled' ? 'green' : 'default'}>
              {TEMPLATE_STATE_LABELS[template.state]}
            </Tag>
            <Typography.Text type="secondary">版本 {template.version}</Typography.Text>
          </>
        ) : null
      }
      backTo={PRINT_LIST_PATH}
      actions={
        canSave ? (
          <Button type="primary" onClick={() => void save()}>
            保存
          </Button>
        ) : null
      }
    >
      <Form<FormValues>
        form={form}
        name={formName}
        layout="vertical"
        disabled={!canSave}
        initialValues={{
          name: template?.name,
          bizType: template?.bizType ?? 'contract',
          coreCompCode: template?.coreCompCode ?? undefined,
          content: template?.content ?? NEW_CONTENT,
          remark: template?.remark ?? undefined,
        }}
      >
        <Row gutter={16}>
          <Col span={8}>
            <Form.Item name="name" label="模板名称" rules={rules.name}>
              <Input placeholder="如：标准保理合同" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="bizType" label="业务类型" rules={rules.bizType}>
              <Select options={typeOptions} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="coreCompCode"
              rules={rules.coreCompCode}
              label="核心企业"
              tooltip="不选则用于该业务类型的所有单据"
            >
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder="通用"
                loading={cores.isPending}
                options={(cores.data ?? []).map((c) => ({ value: c.code, label: c.label }))}
              />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} xl={12}>
            <Form.Item
              name="content"
              label="模板内容（HTML，占位符写作 {{字段}}，列表写作 {{#列表}}…{{/列表}}）"
              rules={rules.content}
            >
              <Input.TextArea
                ref={editor}
                data-testid="print-content"
                rows={22}
                spellCheck={false}
                style={{ fontFamily: 'monospace', fontSize: 13 }}
              />
            </Form.Item>
            <Form.Item name="remark" label="备注" rules={rules.remark}>
              <Input.TextArea rows={2} />
            </Form.Item>
          </Col>
          <Col xs={24} xl={12}>
            <Typography.Text strong>实时预览（示例数据）</Typography.Text>
            {preview.problem ? (
              <Alert type="warning" showIcon message={preview.problem} style={{ margin: '8px 0' }} />
            ) : null}
            {preview.html ? (
              // Scripts stay off (no allow-scripts), as in the preview page. Same-origin keeps the
              // frame in the page's own process: a sandboxed opaque-origin frame gets a process of
              // its own, and a click right after a scroll was then routed by the frame's stale
              // position into the preview instead of the button (docs/architecture.md "A click routed into the print preview").
              <iframe
                data-testid="print-live-preview"
                title="实时预览"
                sandbox="allow-same-origin"
                srcDoc={preview.html}
                className="print-live-preview"
              />
            ) : null}
            {canSave ? (
              <Space style={{ marginTop: 8 }} wrap>
                <Input
                  value={docCode}
                  onChange={(e) => setDocCode(e.target.value)}
                  placeholder={`输入${BIZ_TYPE_DOC_LABELS[bizType]}`}
                  style={{ width: 220 }}
                />
                <Button
                  disabled={!/^\d{12}$/.test(docCode.trim())}
                  onClick={() => void previewWithDocument()}
                >
                  用单据预览
                </Button>
              </Space>
            ) : null}
          </Col>
        </Row>
      </Form>
      <Card
        size="small"
        title={`占位符：${BIZ_TYPE_LABELS[bizType]}（点击插入）`}
        loading={catalogue.isPending}
      >
        {catalogue.data ? (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <div data-testid="print-catalogue">{fieldTags(catalogue.data.fields)}</div>
            {catalogue.data.lists.map((l) => (
              <div key={l.key}>
                <Tag
                  color="blue"
                  onClick={() => insert(`{{#${l.key}}}\n{{/${l.key}}}`)}
                  style={{ cursor: 'pointer' }}
                >
                  {l.label}（列表 {`{{#${l.key}}}`}）
                </Tag>
                {fieldTags(l.fields)}
              </div>
            ))}
          </Space>
        ) : null}
      </Card>
    </EditorFrame>
  );
}
