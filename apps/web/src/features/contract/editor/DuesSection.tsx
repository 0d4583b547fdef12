import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Select, Space, Table, Typography } from 'antd';
import { MinusCircleOutlined } from '@ant-design/icons';
import { CONTRACT_PATHS, DUE_KIND_LABELS, differsFromRule, type DueItem } from '@portal/contract/contract';
import { formatMoney } from '@portal/contract/format';
import { DateInput } from '../../../shared/form/DateInput';
import { MoneyInput } from '../../../shared/form/MoneyInput';
import { contractQueries } from '../api';
import { sumOf } from '../components';
import { options } from '../state-tags';
import type { ContractDoc } from './contract-doc';
import { useFormFill } from '../../../shared/editor/use-form-fill';

const REASON_MISSING = '金额与规则金额不同，请填写原因';

/**
 * 应收费用: the contract's fees, edited as rows and saved together. The up-front items the rule
 * implies come with the plan; an amount other than the rule's figure asks for its reason
 * (docs/money-lifecycle.md "Implied up-front items").
 */
export function DuesSection({ doc }: { doc: ContractDoc }) {
  const { bizCode, info, editable } = doc;
  const client = useQueryClient();
  const stored = useQuery(contractQueries.dues(bizCode));
  const implied = useQuery(contractQueries.suggestedDues(bizCode)).data ?? [];
  const [dues, setDues] = useState<DueItem[]>([]);
  const [tried, setTried] = useState(false);
  useFormFill(stored, (rows) =>
    setDues(
      rows.map((d) => ({
        kind: d.kind,
        amount: d.amount,
        dueDate: d.dueDate,
        remark: d.remark ?? undefined,
        reason: d.reason ?? undefined,
      })),
    ),
  );
  const change = (i: number, part: Partial<DueItem>) =>
    setDues((d) => d.map((x, j) => (j === i ? { ...x, ...part } : x)));
  const ruleOf = (kind: DueItem['kind']) => implied.find((d) => d.kind === kind)?.amount ?? null;
  const unexplained = (d: DueItem) => differsFromRule(d.amount, ruleOf(d.kind)) && !d.reason?.trim();

  /** 按规则生成: the implied items at the rule's figures again; the other fees stay. */
  const suggest = async () => {
    const s = await client.fetchQuery(contractQueries.suggestedDues(bizCode)).catch(() => null);
    if (s) setDues((d) => [...s, ...d.filter((x) => !s.some((i) => i.kind === x.kind))]);
  };
  const save = async () => {
    setTried(true);
    if (dues.some(unexplained)) return;
    const items = dues.map((d) => ({
      kind: d.kind,
      amount: d.amount,
      dueDate: d.dueDate,
      ...(d.remark ? { remark: d.remark } : {}),
      ...(d.reason?.trim() && differsFromRule(d.amount, ruleOf(d.kind)) ? { reason: d.reason.trim() } : {}),
    }));
    await doc.save({
      path: CONTRACT_PATHS.dueSave,
      body: { contBizCode: bizCode, version: doc.version, items },
      what: '应收费用',
    });
  };

  return (
    <div data-testid="dues-tab">
      <Space style={{ marginBottom: 12 }}>
        <Button onClick={() => void suggest()} disabled={!editable}>
          按规则生成
        </Button>
        <Button
          onClick={() =>
            setDues((d) => [...d, { kind: 'serviceFee', amount: '0.00', dueDate: info?.startDate ?? '' }])
          }
          disabled={!editable}
        >
          添加
        </Button>
        <Button type="primary" onClick={() => void save()} disabled={!editable}>
          保存
        </Button>
      </Space>
      <Table<DueItem>
        size="small"
        rowKey={(_, i) => String(i)}
        pagination={false}
        dataSource={dues}
        columns={[
          {
            title: '费用类型',
            key: 'kind',
            render: (_: unknown, r, i) => (
              <Select
                value={r.kind}
                disabled={!editable}
                style={{ width: 140 }}
                options={options(DUE_KIND_LABELS)}
                onChange={(kind) => change(i, { kind })}
              />
            ),
          },
          {
            title: '金额',
            key: 'amount',
            render: (_: unknown, r, i) => (
              <MoneyInput
                aria-label="费用金额"
                value={r.amount}
                disabled={!editable}
                onChange={(amount) => change(i, { amount: amount ?? '' })}
              />
            ),
          },
          {
            title: '规则金额',
            key: 'ruleAmount',
            align: 'right',
            render: (_: unknown, r) => {
              const rule = ruleOf(r.kind);
              return rule === null ? '—' : formatMoney(rule);
            },
          },
          {
            title: '原因',
            key: 'reason',
            render: (_: unknown, r, i) =>
              differsFromRule(r.amount, ruleOf(r.kind)) ? (
                <>
                  <Input
                    aria-label={`${DUE_KIND_LABELS[r.kind]}原因`}
                    value={r.reason ?? ''}
                    maxLength={200}
                    disabled={!editable}
                    status={tried && unexplained(r) ? 'error' : undefined}
                    style={{ width: 260 }}
                    onChange={(e) => change(i, { reason: e.target.value })}
                  />
                  {tried && unexplained(r) ? (
                    <Typography.Text type="danger" style={{ display: 'block' }}>
                      {REASON_MISSING}
                    </Typography.Text>
                  ) : null}
                </>
              ) : null,
          },
          {
            title: '应收日期',
            key: 'dueDate',
            render: (_: unknown, r, i) => (
              <DateInput
                aria-label="应收日期"
                value={r.dueDate}
                disabled={!editable}
                onChange={(dueDate) => change(i, { dueDate: dueDate ?? '' })}
              />
            ),
          },
          {
            title: '',
            key: 'remove',
            render: (_: unknown, _r, i) =>
              editable ? (
                <MinusCircleOutlined
                  aria-label="删除费用"
                  onClick={() => setDues((d) => d.filter((_x, j) => j !== i))}
                />
              ) : null,
          },
        ]}
        summary={(rows) => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
            <Table.Summary.Cell index={1}>
              {formatMoney(sumOf(rows, (r) => (/^\d+(\.\d{1,2})?$/.test(r.amount) ? r.amount : '0')))}
            </Table.Summary.Cell>
          </Table.Summary.Row>
        )}
      />
    </div>
  );
}
