import { useMemo } from 'react';
import dayjs from 'dayjs';
import {
  Alert,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Empty,
  Form,
  InputNumber,
  Row,
  Table,
  type TableColumnsType,
} from 'antd';
import { formatMoney } from '@portal/contract/format';
import { MAX_TERM_MONTHS, type PlanItem } from '@portal/contract/plan/schedule';
import { moneyColumn } from '../../shared/list/columns';
import { PlanChart } from '../../shared/plan/PlanChart';
import { previewPlan, type SampleLoan } from './plan-preview';
import type { RuleFormValues } from './rule-form';
import { useDebounced } from './use-debounced';

const PREVIEW_DEBOUNCE_MS = 250;

const columns: TableColumnsType<PlanItem> = [
  { title: '期次', dataIndex: 'period', key: 'period', width: 64, align: 'center' },
  { title: '起息日', dataIndex: 'startDate', key: 'startDate', width: 110 },
  { title: '到期日', dataIndex: 'dueDate', key: 'dueDate', width: 110 },
  { title: '天数', dataIndex: 'days', key: 'days', width: 64, align: 'right' },
  moneyColumn<PlanItem>('本金', 'principal'),
  moneyColumn<PlanItem>('利息', 'interest'),
  moneyColumn<PlanItem>('费用', 'fee'),
  moneyColumn<PlanItem>('合计', 'total'),
];

/**
 * "1000000" -> "1,000,000.00" on the digits themselves (string work, no float); while the user
 * types, the decimals are left as typed.
 */
function groupThousands(value: string | undefined, info: { userTyping: boolean }): string {
  const [int = '', frac] = String(value ?? '').split('.');
  if (int === '') return '';
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (info.userTyping) return frac === undefined ? grouped : `${grouped}.${frac}`;
  return `${grouped}.${(frac ?? '').padEnd(2, '0')}`;
}

const money = (testId: string, value: string) => <span data-testid={testId}>{formatMoney(value)}</span>;

export interface PlanPreviewProps {
  /** The rule form's current values (the preview follows them, debounced). */
  values: Partial<RuleFormValues>;
  sample: SampleLoan;
  onSampleChange: (sample: SampleLoan) => void;
}

/**
 * The live preview of the editor: a sample loan (principal, start date, term) run through the same
 * plan engine as the server (generatePlan of '@portal/contract/plan/schedule') on every change of
 * the rule or the sample, debounced. Engine input errors are shown here, never thrown.
 */
export function PlanPreview({ values, sample, onSampleChange }: PlanPreviewProps) {
  const input = useMemo(() => ({ values, sample }), [values, sample]);
  const settled = useDebounced(input, PREVIEW_DEBOUNCE_MS);
  const preview = useMemo(() => previewPlan(settled.values, settled.sample), [settled]);

  return (
    <Card title="示例还款计划" size="small" data-testid="plan-preview" className="ruler-preview">
      <Form layout="inline" className="ruler-preview__sample" style={{ rowGap: 8, marginBottom: 12 }}>
        <Form.Item label="示例本金" htmlFor="ruler-sample-principal">
          <InputNumber<string>
            id="ruler-sample-principal"
            stringMode
            min="0.01"
            step="10000"
            formatter={groupThousands}
            parser={(v) => (v ?? '').replace(/,/g, '')}
            value={sample.principal}
            onChange={(v) => onSampleChange({ ...sample, principal: v })}
            suffix="元"
            style={{ width: 200 }}
          />
        </Form.Item>
        <Form.Item label="起息日" htmlFor="ruler-sample-start">
          <DatePicker
            id="ruler-sample-start"
            allowClear={false}
            value={sample.startDate ? dayjs(sample.startDate, 'YYYY-MM-DD') : null}
            onChange={(d) => onSampleChange({ ...sample, startDate: d ? d.format('YYYY-MM-DD') : null })}
          />
        </Form.Item>
        <Form.Item label="期限" htmlFor="ruler-sample-term">
          <InputNumber<number>
            id="ruler-sample-term"
            min={1}
            max={MAX_TERM_MONTHS}
            precision={0}
            value={sample.termMonths}
            onChange={(v) => onSampleChange({ ...sample, termMonths: v })}
            suffix="个月"
            style={{ width: 120 }}
          />
        </Form.Item>
      </Form>

      {preview.ok ? (
        <>
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2, lg: 5 }}
            data-testid="plan-summary"
            style={{ marginBottom: 8 }}
            items={[
              {
                key: 'maturity',
                label: '到期日',
                children: <span data-testid="plan-maturity">{preview.plan.maturityDate}</span>,
              },
              {
                key: 'upfrontInterest',
                label: '前置利息',
                children: money('plan-upfront-interest', preview.plan.upfrontInterest),
              },
              {
                key: 'upfrontFee',
                label: '前置费用',
                children: money('plan-upfront-fee', preview.plan.upfrontFee),
              },
              {
                key: 'totalInterest',
                label: '利息合计',
                children: money('plan-total-interest', preview.plan.totalInterest),
              },
              {
                key: 'totalFee',
                label: '费用合计',
                children: money('plan-total-fee', preview.plan.totalFee),
              },
            ]}
          />
          <Row gutter={16}>
            <Col span={24}>
              <PlanChart items={preview.plan.items} />
            </Col>
          </Row>
          <Table<PlanItem>
            data-testid="plan-table"
            rowKey="period"
            size="small"
            columns={columns}
            dataSource={preview.plan.items}
            pagination={false}
            scroll={{ x: 760, y: 420 }}
            summary={() => (
              <Table.Summary fixed>
                <Table.Summary.Row className="ruler-preview__totals">
                  <Table.Summary.Cell index={0} colSpan={4} align="center">
                    合计
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right">
                    {formatMoney(preview.totals.principal)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={5} align="right">
                    <span data-testid="plan-items-interest">{formatMoney(preview.totals.interest)}</span>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={6} align="right">
                    {formatMoney(preview.totals.fee)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={7} align="right">
                    {formatMoney(preview.totals.total)}
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              </Table.Summary>
            )}
          />
        </>
      ) : (
        <>
          <Alert type="warning" showIcon title={preview.message} data-testid="plan-error" />
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无示例计划" />
        </>
      )}
    </Card>
  );
}
