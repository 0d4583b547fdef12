import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, InputNumber, Select, Space, Table } from 'antd';
import {
  HANDOVER_PATHS,
  ORIGINAL_KIND_LABELS,
  type HandoverListRow,
  type HandoverView,
  handoverItemSchema,
  handoverSaveSchema,
} from '@portal/contract/contract';
import { DateInput } from '../../shared/form/DateInput';
import { ListEditor } from '../../shared/form/ListEditor';
import { fieldRules } from '../../shared/form/zod-rule';
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn, dateColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import { docStateColumn, useDocActionsColumn } from '../../shared/workflow/doc-columns';
import { ContractDocFilters } from '../../shared/workflow/doc-filters';
import { docFrameProps, useDocCode, useDocSaved } from '../../shared/workflow/doc-kind';
import { DocViewFrame } from '../../shared/workflow/DocViewFrame';
import { HANDOVER_DOC } from './doc-kinds';
import { CONTRACT_ROUTES, contractApi, contractQueries, type Saved } from './api';
import { ContractPicker } from './ContractPicker';
import { options } from './state-tags';
import { PrintButton } from '../../shared/print/PrintButton';
import { validValues } from '../../shared/ui/valid-values';
import { usePageFormName } from '../../shared/form/form-name';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { SaveButtons } from '../../shared/editor/SaveButtons';
import { useFormFill } from '../../shared/editor/use-form-fill';

const rules = fieldRules(handoverSaveSchema);
const itemRules = fieldRules(handoverItemSchema);

/** 资料交接单 list. */
export function HandoverListPage() {
  const navigate = useNavigate();
  const buttons = useButtons(HANDOVER_DOC.menuCode);
  const [contBizCode, setContBizCode] = useState('');
  const actions = useDocActionsColumn<HandoverListRow>(HANDOVER_DOC, {
    code: (r) => r.bizCode,
    remove: (code) => contractApi.remove(HANDOVER_PATHS.del, code, '资料交接单'),
  });
  return (
    <div data-testid="handover-list">
      <ListPage<HandoverListRow>
        source={HANDOVER_PATHS.list}
        rowKey="bizCode"
        filters={<ContractDocFilters custName={false} />}
        toolbar={
          buttons.has('add') ? (
            <Space>
              <ContractPicker value={contBizCode || undefined} onChange={(v) => setContBizCode(v ?? '')} />
              <Button
                type="primary"
                disabled={!contBizCode}
                onClick={() => void navigate(`${CONTRACT_ROUTES.hoEditor}?contBizCode=${contBizCode}`)}
              >
                新增交接单
              </Button>
            </Space>
          ) : null
        }
        columns={[
          codeColumn('交接单编号', 'bizCode'),
          codeColumn('合同编号', 'contBizCode'),
          { title: '合同号', dataIndex: 'contractNo', key: 'contractNo' },
          { title: '客户名称', dataIndex: 'custName', key: 'custName' },
          dateColumn('交接日期', 'handoverDate'),
          { title: '接收人', dataIndex: 'receiverName', key: 'receiverName' },
          docStateColumn<HandoverListRow>(),
          actions,
        ]}
      />
    </div>
  );
}

type Values = Record<string, unknown>;

/** 资料交接单编辑: a new sheet starts from the contract's usual originals (init). */
export function HandoverEditorPage() {
  const [params] = useSearchParams();
  const bizCode = params.get('bizCode') ?? '';
  const contBizCode = params.get('contBizCode') ?? '';
  const [form] = Form.useForm<Values>();
  const formName = usePageFormName('handover');
  const [version, setVersion] = useState<number | undefined>();
  const existing = useQuery(contractQueries.handover(bizCode));
  const init = useQuery({ ...contractQueries.handoverInit(contBizCode), enabled: !bizCode && !!contBizCode });
  const head = existing.data ?? init.data;
  useFormFill(existing, (v) => {
    form.setFieldsValue({ ...v, remark: v.remark ?? undefined });
    setVersion(v.version);
  });
  useFormFill({ data: existing.data ? undefined : init.data, isLoading: init.isLoading }, (i) =>
    form.setFieldsValue({ handoverDate: i.handoverDate, items: i.items }),
  );

  const saved = useDocSaved(HANDOVER_DOC, bizCode);
  const save = async (submit: boolean) => {
    const values = await validValues(form);
    if (!values) return;
    const body = {
      ...values,
      contBizCode: head?.contBizCode ?? contBizCode,
      ...(bizCode ? { bizCode, version } : {}),
      submit,
    };
    const r = await contractApi
      .save<Saved>(HANDOVER_PATHS.save, body, submit ? '资料交接单并提交审批' : '资料交接单')
      .catch(() => null);
    if (!r?.ok || !r.data) return;
    setVersion(r.data.version);
    saved(r.data.bizCode, submit);
  };

  return (
    <EditorFrame
      testId="handover-editor"
      title={`${bizCode ? `资料交接单编辑 ${bizCode}` : '新增资料交接单'}${head ? ` — ${head.contractNo} ${head.custName}` : ''}`}
      backTo={CONTRACT_ROUTES.hoList}
      doc={bizCode ? { docType: HANDOVER_DOC.docType, docCode: bizCode } : undefined}
    >
      {!bizCode && !contBizCode ? <Alert type="info" showIcon message="请先选择合同" /> : null}
      <Form form={form} name={formName} layout="vertical">
        <Space wrap>
          <Form.Item name="handoverName" label="移交人" rules={rules.handoverName}>
            <Input aria-label="移交人" />
          </Form.Item>
          <Form.Item name="receiverName" label="接收人" rules={rules.receiverName}>
            <Input aria-label="接收人" />
          </Form.Item>
          <Form.Item name="handoverDate" label="交接日期" rules={rules.handoverDate}>
            <DateInput aria-label="交接日期" />
          </Form.Item>
        </Space>
        <ListEditor
          name="items"
          testId="handover-items"
          addText="添加资料"
          removeLabel="删除资料"
          newRow={{ kind: 'original', copies: 1 }}
          columns={[
            {
              name: 'docName',
              title: '资料名称',
              width: 240,
              rules: itemRules.docName,
              input: <Input aria-label="资料名称" />,
            },
            {
              name: 'kind',
              title: '原件/复印件',
              width: 120,
              rules: itemRules.kind,
              input: <Select aria-label="原件/复印件" options={options(ORIGINAL_KIND_LABELS)} />,
            },
            {
              name: 'copies',
              title: '份数',
              width: 100,
              rules: itemRules.copies,
              input: <InputNumber aria-label="份数" />,
            },
            {
              name: 'remark',
              title: '备注',
              width: 200,
              rules: itemRules.remark,
              input: <Input aria-label="资料备注" />,
            },
          ]}
        />
        <Form.Item name="remark" label="备注" rules={rules.remark} style={{ marginTop: 16 }}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <SaveButtons save={save} />
      </Form>
    </EditorFrame>
  );
}

/** 资料交接单查看 inside the audit view. */
export function HandoverViewPage() {
  const bizCode = useDocCode(HANDOVER_DOC);
  const sheet = useQuery(contractQueries.handover(bizCode));
  const h: HandoverView | undefined = sheet.data;
  return (
    <DocViewFrame
      testId="handover-view"
      title="资料交接单"
      state={h?.state}
      actions={<PrintButton docCode={bizCode} types={['handover']} />}
      {...docFrameProps(HANDOVER_DOC, bizCode)}
    >
      {h ? (
        <>
          <Descriptions size="small" bordered column={3}>
            <Descriptions.Item label="合同">{`${h.contractNo}（${h.contBizCode}）`}</Descriptions.Item>
            <Descriptions.Item label="客户">{h.custName}</Descriptions.Item>
            <Descriptions.Item label="交接日期">{h.handoverDate}</Descriptions.Item>
            <Descriptions.Item label="移交人">{h.handoverName}</Descriptions.Item>
            <Descriptions.Item label="接收人">{h.receiverName}</Descriptions.Item>
            <Descriptions.Item label="备注">{h.remark ?? '—'}</Descriptions.Item>
          </Descriptions>
          <Table
            style={{ marginTop: 12 }}
            size="small"
            rowKey={(_, i) => String(i)}
            pagination={false}
            dataSource={h.items}
            columns={[
              { title: '资料名称', dataIndex: 'docName', key: 'docName' },
              {
                title: '原件/复印件',
                dataIndex: 'kind',
                key: 'kind',
                render: (k: 'original' | 'copy') => ORIGINAL_KIND_LABELS[k],
              },
              { title: '份数', dataIndex: 'copies', key: 'copies' },
              { title: '备注', dataIndex: 'remark', key: 'remark' },
            ]}
          />
        </>
      ) : null}
    </DocViewFrame>
  );
}
