import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Space, Typography } from 'antd';
import {
  CONTRACT_PATHS,
  type CustomPlanRow,
  type ImportPreview,
  type PlanPreview,
} from '@portal/contract/contract';
import { PlanChart } from '../../../shared/plan/PlanChart';
import { contractQueries, importPlanExcel } from '../api';
import { PlanTable } from '../components';
import type { ContractDoc } from './contract-doc';
import { ImportTemplateButton } from '../../../shared/files/ImportTemplateButton';
import { ImportPreviewModal } from './ImportPreviewModal';
import { XlsxImportButton } from '../../../shared/files/XlsxImportButton';

/**
 * 方案/还款计划: the stored plan, or a generated preview to save (from the rule, or from an
 * imported custom schedule when the rule's method is CUSTOM).
 */
export function SchemeSection({ doc }: { doc: ContractDoc }) {
  const { bizCode, info, editable } = doc;
  const client = useQueryClient();
  const scheme = useQuery(contractQueries.scheme(bizCode));
  const [preview, setPreview] = useState<PlanPreview | null>(null);
  const [customRows, setCustomRows] = useState<CustomPlanRow[] | null>(null);
  const [planPreview, setPlanPreview] = useState<ImportPreview<CustomPlanRow> | null>(null);
  const method = scheme.data?.method ?? null;
  const custom = customRows ? { customItems: customRows } : {};

  const generate = async () => {
    const p = await client.fetchQuery(contractQueries.planPreview(bizCode, customRows)).catch(() => null);
    if (p) setPreview(p);
  };
  const save = async () => {
    const saved = await doc.save({
      path: CONTRACT_PATHS.schemeSave,
      body: { contBizCode: bizCode, version: doc.version, ...custom },
      what: '还款计划',
    });
    if (saved) setPreview(null);
  };

  return (
    <div data-testid="scheme-tab">
      <Space style={{ marginBottom: 12 }} wrap>
        <Button onClick={() => void generate()} disabled={!editable} data-testid="plan-generate">
          生成还款计划
        </Button>
        {method === 'CUSTOM' || customRows ? (
          <XlsxImportButton
            disabled={!editable}
            read={(f) =>
              importPlanExcel(f, {
                financingAmount: info?.financingAmount,
                startDate: info?.startDate,
              }).then(setPlanPreview)
            }
          >
            导入自定义还款计划
          </XlsxImportButton>
        ) : null}
        {method === 'CUSTOM' || customRows ? <ImportTemplateButton kind="plan" /> : null}
        {preview ? (
          <Button type="primary" onClick={() => void save()} disabled={!editable} data-testid="plan-save">
            保存还款计划
          </Button>
        ) : null}
        <Typography.Text type="secondary">
          {scheme.data?.ruleName ? `计息规则：${scheme.data.ruleName}` : ''}
        </Typography.Text>
      </Space>
      {preview ? (
        <>
          <Alert type="info" showIcon message="预览：保存后生效" style={{ marginBottom: 8 }} />
          <PlanTable items={preview.items} testId="plan-preview" />
          <PlanChart items={preview.items} height={260} />
        </>
      ) : (scheme.data?.items.length ?? 0) > 0 ? (
        <>
          <PlanTable items={scheme.data!.items} asOf={scheme.data!.asOf} />
          <PlanChart items={scheme.data!.items} height={260} />
        </>
      ) : (
        <Alert type="warning" showIcon message="尚未生成还款计划" />
      )}
      <ImportPreviewModal
        title="还款计划导入预览"
        preview={planPreview}
        columns={['dueDate', 'principal']}
        onCancel={() => setPlanPreview(null)}
        onOk={() => {
          setCustomRows((planPreview?.rows ?? []).map((r) => r.item as CustomPlanRow));
          setPlanPreview(null);
        }}
      />
    </div>
  );
}
