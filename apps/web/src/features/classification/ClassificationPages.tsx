import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Form, Input, Select, Tabs, Tag } from 'antd';
import {
  ASSET_CLASS_LABELS,
  ASSET_CLASSES,
  CLASS_FILE_NAME,
  CLASS_MENU,
  CLASS_PATHS,
  UNCLASSIFIED_LABEL,
  classAdjListSchema,
  classAdjSaveSchema,
  classListSchema,
  type AssetClass,
  type ClassAdjInit,
  type ClassAdjRow,
  type ClassRow,
} from '@portal/contract/classification';
import { EditorFrame } from '../../shared/editor/EditorFrame';
import { SaveButtons } from '../../shared/editor/SaveButtons';
import { fieldRules } from '../../shared/form/zod-rule';
import { ListExportButton } from '../../shared/list/ExportButton';
import { actionsColumn } from '../../shared/list/RowActions';
import { ListPage } from '../../shared/list/ListPage';
import { codeColumn, dateColumn, moneyColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import { update } from '../../shared/request/http';
import { DocViewPage } from '../../shared/workflow/DocViewPage';
import { docStateColumn, useDocActionsColumn } from '../../shared/workflow/doc-columns';
import { ContractDocFilters } from '../../shared/workflow/doc-filters';
import type { DocKind } from '../../shared/workflow/doc-kind';
import { useBizDate } from '../../shared/bizdate/api';
import { ClassSummaryCard } from '../../shared/classification/ClassSummary';
import { useDocSaved } from '../../shared/workflow/doc-kind';
import { useFormFill } from '../../shared/editor/use-form-fill';
import { CLASS_ROUTES, classApi, classKeys, classQueries } from './api';

/** The 分类调整单 as the document kit knows it. */
const CLASS_ADJ_DOC: DocKind = {
  docType: 'classAdjust',
  menuCode: CLASS_MENU,
  codeParam: 'adjBizCode',
  routes: CLASS_ROUTES,
  listPath: CLASS_PATHS.adjList,
  auditPath: CLASS_PATHS.audit,
  unAuditPath: CLASS_PATHS.unAudit,
  queryKey: classKeys.all,
};

export const CLASS_OPTIONS = ASSET_CLASSES.map((c) => ({ value: c, label: ASSET_CLASS_LABELS[c] }));
const SEVERITY_COLORS: Record<AssetClass, string> = {
  normal: 'green',
  watch: 'gold',
  substandard: 'orange',
  doubtful: 'volcano',
  loss: 'red',
};

/** A class as a coloured tag (未分类 when none). */
export function ClassTag({ value }: { value: AssetClass | null }) {
  return value ? (
    <Tag color={SEVERITY_COLORS[value]}>{ASSET_CLASS_LABELS[value]}</Tag>
  ) : (
    <Tag>{UNCLASSIFIED_LABEL}</Tag>
  );
}

/**
 * The contracts' list keeps its search apart from the 分类调整单 list on the same screen, so that
 * 导出 writes what this list shows.
 */
const CONTRACTS_CONDITION = `${CLASS_ROUTES.list}#contracts`;

/** The live contracts with their class, proposal and overdue days; 调整 opens a 分类调整单. */
function ContractClassList() {
  const navigate = useNavigate();
  const buttons = useButtons(CLASS_MENU);
  return (
    <ListPage<ClassRow>
      source={CLASS_PATHS.list}
      rowKey="contBizCode"
      conditionKey={CONTRACTS_CONDITION}
      sortable={classListSchema.sortable}
      toolbar={
        <ListExportButton
          menu={CLASS_MENU}
          path={CLASS_PATHS.export}
          fileName={CLASS_FILE_NAME}
          conditionKey={CONTRACTS_CONDITION}
        />
      }
      filters={
        <>
          <ContractDocFilters state={false} />
          <Form.Item name="assetClass" label="当前分类">
            <Select allowClear style={{ width: 110 }} options={CLASS_OPTIONS} />
          </Form.Item>
          <Form.Item name="proposedClass" label="建议分类">
            <Select allowClear style={{ width: 110 }} options={CLASS_OPTIONS} />
          </Form.Item>
          <Form.Item name="adjusted" label="是否调整">
            <Select
              allowClear
              style={{ width: 100 }}
              options={[
                { value: 'yes', label: '已调整' },
                { value: 'no', label: '未调整' },
              ]}
            />
          </Form.Item>
        </>
      }
      columns={[
        codeColumn('合同编号', 'contBizCode'),
        { title: '合同号', dataIndex: 'contractNo', key: 'contractNo' },
        { title: '客户名称', dataIndex: 'custName', key: 'custName' },
        moneyColumn('本金余额', 'principalOutstanding'),
        moneyColumn('坏账准备', 'provision'),
        { title: '逾期天数', dataIndex: 'overdueDays', key: 'overdueDays', width: 90, align: 'right' },
        {
          title: '建议分类',
          key: 'proposedClass',
          width: 90,
          render: (_: unknown, r: ClassRow) => <ClassTag value={r.proposedClass} />,
        },
        {
          title: '当前分类',
          key: 'assetClass',
          width: 90,
          render: (_: unknown, r: ClassRow) => <ClassTag value={r.assetClass} />,
        },
        dateColumn('分类日期', 'classDate'),
        {
          title: '调整单',
          key: 'adjBizCode',
          width: 130,
          render: (_: unknown, r: ClassRow) => r.adjBizCode ?? r.openAdjBizCode ?? '',
        },
        actionsColumn<ClassRow>((r) => [
          {
            label: '调整',
            hidden: !(buttons.has('add') || buttons.has('save')) || !!r.openAdjBizCode,
            onClick: () => void navigate(`${CLASS_ROUTES.editor}?contBizCode=${r.contBizCode}`),
          },
        ]),
      ]}
    />
  );
}

function AdjustmentList() {
  const actions = useDocActionsColumn<ClassAdjRow>(CLASS_ADJ_DOC, {
    code: (r) => r.adjBizCode,
    remove: classApi.remove,
  });
  return (
    <ListPage<ClassAdjRow>
      source={CLASS_PATHS.adjList}
      rowKey="adjBizCode"
      sortable={classAdjListSchema.sortable}
      filters={<ContractDocFilters custName={false} />}
      columns={[
        codeColumn('调整单编号', 'adjBizCode'),
        { title: '合同号', dataIndex: 'contractNo', key: 'contractNo' },
        { title: '客户名称', dataIndex: 'custName', key: 'custName' },
        {
          title: '原分类',
          key: 'fromClass',
          width: 90,
          render: (_: unknown, r: ClassAdjRow) => <ClassTag value={r.fromClass} />,
        },
        {
          title: '调整后分类',
          key: 'toClass',
          width: 100,
          render: (_: unknown, r: ClassAdjRow) => <ClassTag value={r.toClass} />,
        },
        { title: '调整原因', dataIndex: 'reason', key: 'reason' },
        dateColumn('生效日期', 'effectiveDate'),
        docStateColumn<ClassAdjRow>(),
        actions,
      ]}
    />
  );
}

/** 五级分类: the contracts' classes, the 分类调整单 list, and the distribution and migration. */
export function ClassificationListPage() {
  const biz = useBizDate();
  const today = biz.data?.businessDate;
  return (
    <div data-testid="classification-list">
      <Tabs
        items={[
          { key: 'contracts', label: '合同分类', children: <ContractClassList /> },
          { key: 'adjustments', label: '分类调整单', children: <AdjustmentList /> },
          {
            key: 'summary',
            label: '分布与迁徙',
            children: today ? <ClassSummaryCard asOf={today} month={today.slice(0, 7)} /> : null,
          },
        ]}
      />
    </div>
  );
}

interface Values {
  toClass?: AssetClass;
  reason?: string;
}

/** The contract and its class now, above the editor and in the view. */
function ContractHead({ v }: { v: ClassAdjInit }) {
  return (
    <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }}>
      <Descriptions.Item label="合同">{`${v.contractNo}（${v.contBizCode}）`}</Descriptions.Item>
      <Descriptions.Item label="客户">{v.custName}</Descriptions.Item>
      <Descriptions.Item label="逾期天数">{v.overdueDays}</Descriptions.Item>
      <Descriptions.Item label="建议分类">
        <ClassTag value={v.proposedClass} />
      </Descriptions.Item>
      <Descriptions.Item label="当前分类">
        <ClassTag value={v.fromClass} />
      </Descriptions.Item>
    </Descriptions>
  );
}

/** 分类调整单编辑: opened from a contract's 调整 or to correct a draft or a rejected one. */
/** The adjustment's fields checked by the save call's own schema (调整后分类, 调整原因). */
const ADJ_RULES = fieldRules(classAdjSaveSchema);

export function ClassAdjEditorPage() {
  const [params] = useSearchParams();
  const code = params.get('adjBizCode') ?? '';
  const contBizCode = params.get('contBizCode') ?? '';
  const [form] = Form.useForm<Values>();
  const [version, setVersion] = useState<number | undefined>();
  const existing = useQuery(classQueries.adj(code));
  const init = useQuery(classQueries.init(contBizCode, !code && !!contBizCode));
  const head: ClassAdjInit | undefined = existing.data ?? init.data;
  useFormFill(existing, (v) => {
    form.setFieldsValue({ toClass: v.toClass, reason: v.reason });
    setVersion(v.version);
  });

  const saved = useDocSaved(CLASS_ADJ_DOC, code);
  const save = async (submit: boolean) => {
    if (!head) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const r = await update<{ adjBizCode: string; version: number }>(
      CLASS_PATHS.saveBaseInfo,
      {
        contBizCode: head.contBizCode,
        toClass: values.toClass,
        reason: values.reason,
        ...(code ? { adjBizCode: code, version } : {}),
        submit,
      },
      { confirm: `此操作将保存分类调整单${submit ? '并提交审批' : ''}！ 是否继续？` },
    ).catch(() => null);
    if (!r?.ok || !r.data) return;
    setVersion(r.data.version);
    saved(r.data.adjBizCode, submit);
  };

  return (
    <EditorFrame
      testId="classification-editor"
      title={code ? `分类调整单编辑 ${code}` : '新增分类调整单'}
      backTo={CLASS_ROUTES.list}
      doc={code ? { docType: 'classAdjust', docCode: code } : undefined}
      actions={<SaveButtons save={save} disabled={!head} />}
    >
      {!code && !contBizCode ? <Alert type="info" showIcon message="请从五级分类列表的「调整」进入" /> : null}
      {init.error ? <Alert type="warning" showIcon message={(init.error as Error).message} /> : null}
      {head ? <ContractHead v={head} /> : null}
      <Form form={form} layout="vertical" style={{ maxWidth: 720 }}>
        <Form.Item name="toClass" label="调整后分类" rules={ADJ_RULES.toClass}>
          <Select aria-label="调整后分类" style={{ width: 200 }} options={CLASS_OPTIONS} />
        </Form.Item>
        <Form.Item name="reason" label="调整原因" rules={ADJ_RULES.reason}>
          <Input.TextArea aria-label="调整原因" rows={4} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </EditorFrame>
  );
}

/** 分类调整单查看 in the audit view: the checker sees the contract's class, proposal and the reason. */
export function ClassAdjViewPage() {
  return (
    <DocViewPage kind={CLASS_ADJ_DOC} testId="classification-view" title="分类调整单" load={classApi.view}>
      {(v) => (
        <>
          <ContractHead v={v} />
          <Descriptions size="small" bordered column={3}>
            <Descriptions.Item label="调整单编号">{v.adjBizCode}</Descriptions.Item>
            <Descriptions.Item label="原分类">
              <ClassTag value={v.fromClass} />
            </Descriptions.Item>
            <Descriptions.Item label="调整后分类">
              <ClassTag value={v.toClass} />
            </Descriptions.Item>
            <Descriptions.Item label="经办人">{v.createdByName ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="生效日期">{v.effectiveDate ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="调整原因" span={3}>
              {v.reason}
            </Descriptions.Item>
          </Descriptions>
        </>
      )}
    </DocViewPage>
  );
}
