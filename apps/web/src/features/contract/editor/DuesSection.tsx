import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Select, Space, Table } from 'antd';
import { MinusCircleOutlined } from '@ant-design/icons';
import { CONTRACT_PATHS, DUE_KIND_LABELS, type DueItem } from '@portal/contract/contract';
import { formatMoney } from '@portal/contract/format';
import { DateInput } from '../../../shared/form/DateInput';
import { MoneyInput } from '../../../shared/form/MoneyInput';
import { contractQueries } from '../api';
import { sumOf } from '../components';
import { options } from '../state-tags';
import type { ContractDoc } from './contract-doc';

/** 应收费用: the contract's fees, edited as rows (or suggested by the rule) and saved together. */
export function DuesSection({ doc }: { doc: ContractDoc }) {
  const { bizCode, info, editable } = doc;
  const client = useQueryClient();
  const stored = useQuery(contractQueries.dues(bizCode));
  const [dues, setDues] = useState<DueItem[]>([]);
  useEffect(() => {
    if (stored.data)
      setDues(
        stored.data.map((d) => ({
          kind: d.kind,
          amount: d.amount,
          dueDate: d.dueDate,
          remark: d.remark ?? undefined,
        })),
      );
  }, [stored.data]);
  const change = (i: number, part: Partial<DueItem>) =>
    setDues((d) => d.map((x, j) => (j === i ? { ...x, ...part } : x)));

  const suggest = async () => {
    const s = await client.fetchQuery(contractQueries.suggestedDues(bizCode)).catch(() => null);
    if (s) setDues(s);
  };
  const save = async () => {
    const items = dues.map((d) => ({
      kind: d.kind,
      amount: d.amount,
      dueDate: d.dueDate,
      ...(d.remark ? { remark: d.remark } : {}),
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
