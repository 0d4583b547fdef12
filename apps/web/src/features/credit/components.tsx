import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty } from 'antd';
import Decimal from 'decimal.js';
import type { UtilisationRow } from '@portal/contract/credit';
import { formatMoney } from '@portal/contract/format';
import { creditQueries } from './api';
import { EChart } from '../../shared/ui/EChart';

const num = (v: string) => new Decimal(v).toNumber();

/**
 * Utilisation per customer (limit / occupied / available), from /ft/api/credit/utilisation, or
 * the `rows` given (a credit's own view passes its line's ledger figures, so the header, the
 * tables and the chart show one set of figures).
 */
export function UtilisationChart({
  custCode,
  rows: given,
  height = 320,
}: {
  custCode?: string;
  rows?: UtilisationRow[];
  height?: number;
}) {
  const query = useQuery({ ...creditQueries.utilisation(custCode), enabled: given === undefined });
  const rows: UtilisationRow[] = given ?? query.data ?? [];
  return (
    <Card
      title="授信额度使用情况"
      size="small"
      data-testid="utilisation-chart"
      extra={
        <Button size="small" onClick={() => void query.refetch()}>
          刷新
        </Button>
      }
    >
      {rows.length === 0 ? (
        <Empty description="暂无生效的授信额度" />
      ) : (
        <>
          <EChart
            height={height}
            option={{
              tooltip: { trigger: 'axis', valueFormatter: (v) => formatMoney(String(v)) },
              legend: { top: 0, data: ['授信额度', '已占用', '可用'] },
              grid: { top: 40, left: 100, right: 24, bottom: 40 },
              xAxis: { type: 'category', data: rows.map((r) => r.custName) },
              yAxis: { type: 'value' },
              series: [
                { name: '授信额度', type: 'bar', data: rows.map((r) => num(r.limitAmount)) },
                { name: '已占用', type: 'bar', data: rows.map((r) => num(r.occupiedAmount)) },
                { name: '可用', type: 'bar', data: rows.map((r) => num(r.availableAmount)) },
              ],
            }}
          />
          <table
            className="credit-utilisation-table"
            data-testid="utilisation-table"
            style={{ width: '100%', marginTop: 8 }}
          >
            <thead>
              <tr>
                <th align="left">客户</th>
                <th align="right">授信额度</th>
                <th align="right">已占用</th>
                <th align="right">冻结</th>
                <th align="right">可用</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.custCode} data-cust={r.custCode}>
                  <td>{r.custName}</td>
                  <td align="right">{formatMoney(r.limitAmount)}</td>
                  <td align="right" data-testid="util-occupied">
                    {formatMoney(r.occupiedAmount)}
                  </td>
                  <td align="right">{formatMoney(r.frozenAmount)}</td>
                  <td align="right" data-testid="util-available">
                    {formatMoney(r.availableAmount)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Card>
  );
}
