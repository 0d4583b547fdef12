import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Space, Statistic, Table } from 'antd';
import { COMPONENT_LABELS, type ReconcileIncome, type ReconcileItem } from '@portal/contract/accounts';
import { formatMoney } from '@portal/contract/format';
import { codeColumn, moneyColumn } from '../../shared/list/columns';
import { useBizDate } from '../../shared/bizdate/api';
import { paidQueries } from './api';

/**
 * 对账: received = allocated + unallocated, and every paid figure equal to its documents. The
 * default period is the year of the business date (the books' today), not of the browser's clock.
 */
export default function ReconcilePage() {
  const bizDate = useBizDate();
  if (bizDate.isLoading) return <Card data-testid="reconcile" title="对账" loading />;
  const year = bizDate.data?.businessDate.slice(0, 4) ?? String(new Date().getFullYear());
  return <Reconcile year={year} />;
}

function Reconcile({ year }: { year: string }) {
  const [range, setRange] = useState({ dateFrom: `${year}-01-01`, dateTo: `${year}-12-31` });
  const [applied, setApplied] = useState(range);
  const q = useQuery(paidQueries.reconcile(applied));
  const r = q.data;
  return (
    <Card data-testid="reconcile" title="对账">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Space>
          <Input
            aria-label="开始日期"
            addonBefore="来款日期从"
            value={range.dateFrom}
            onChange={(e) => setRange((x) => ({ ...x, dateFrom: e.target.value.trim() }))}
          />
          <Input
            aria-label="结束日期"
            addonBefore="至"
            value={range.dateTo}
            onChange={(e) => setRange((x) => ({ ...x, dateTo: e.target.value.trim() }))}
          />
          <Button type="primary" onClick={() => setApplied(range)}>
            对账
          </Button>
        </Space>
        {r ? (
          <>
            <Space size="large">
              <Statistic title="来款笔数" value={r.incomes} />
              <Statistic title="来款合计" value={formatMoney(r.received)} />
              <Statistic title="已核销" value={formatMoney(r.allocated)} />
              <Statistic title="未核销" value={formatMoney(r.unallocated)} />
              <Statistic title="期间核销" value={formatMoney(r.writtenOff)} />
              <Statistic title="期间冲红" value={formatMoney(r.reversed)} />
            </Space>
            <Alert
              data-testid="reconcile-result"
              type={r.balanced ? 'success' : 'error'}
              showIcon
              message={
                r.balanced
                  ? '账实相符：来款合计 = 已核销 + 未核销，计划已还金额与核销明细一致'
                  : '存在差异，见下表'
              }
            />
            {r.incomeDifferences.length ? (
              <Table<ReconcileIncome>
                size="small"
                rowKey="fiidBizCode"
                pagination={false}
                dataSource={r.incomeDifferences}
                columns={[
                  codeColumn('来款编号', 'fiidBizCode'),
                  { title: '付款人', dataIndex: 'payerName', key: 'payerName' },
                  moneyColumn('来款金额', 'amount'),
                  moneyColumn('已核销（账）', 'allocated'),
                  moneyColumn('核销明细合计', 'posted'),
                  moneyColumn('差异', 'difference'),
                ]}
              />
            ) : null}
            {r.itemDifferences.length ? (
              <Table<ReconcileItem>
                size="small"
                rowKey={(x) => `${x.contBizCode}/${x.period}/${x.component}`}
                pagination={false}
                dataSource={r.itemDifferences}
                columns={[
                  { title: '合同号', dataIndex: 'contractNo', key: 'contractNo' },
                  { title: '期次', dataIndex: 'period', key: 'period' },
                  { title: '项目', key: 'component', render: (_, x) => COMPONENT_LABELS[x.component] },
                  moneyColumn('已还（计划）', 'paid'),
                  moneyColumn('核销明细合计', 'posted'),
                  moneyColumn('差异', 'difference'),
                ]}
              />
            ) : null}
          </>
        ) : null}
      </Space>
    </Card>
  );
}
