import Decimal from 'decimal.js';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Row, Statistic, Typography } from 'antd';
import { AGING_BUCKETS, AGING_LABELS, type AgingRow, type TrendPoint } from '@portal/contract/dashboard';
import type { UtilisationRow } from '@portal/contract/credit';
import { formatMoney } from '@portal/contract/format';
import { useSessionStore } from '../../shared/session/session-store';
import { TodoCard } from '../../shared/workflow/TodoCard';
import { EChart, type ChartOption } from '../../shared/ui/EChart';
import { dashboardQueries, holdsMenu } from './api';
import { dueWithinUrl, effectiveUrl, overdueUrl } from './links';
import { Widget } from './Widget';
import { NoticeCard } from './NoticeCard';
import { useBizDate } from '../../shared/bizdate/api';
import { ClassSummaryCard } from '../../shared/classification/ClassSummary';

const compact = new Intl.NumberFormat('zh-CN', { notation: 'compact', maximumFractionDigits: 2 });
/** Drawing coordinates only; every figure shown as text is the server's decimal string. */
const plot = (v: string) => Number(v);

function useHasMenu(code: string): boolean {
  return useSessionStore((s) => holdsMenu(s.roles, code));
}

/** A figure that opens the list it was summed from. */
function Figure({
  title,
  value,
  sub,
  to,
  testId,
}: {
  title: string;
  value: string;
  sub?: string;
  to: string;
  testId: string;
}) {
  const navigate = useNavigate();
  return (
    <Card
      size="small"
      hoverable
      data-testid={testId}
      onClick={() => void navigate(to)}
      style={{ cursor: 'pointer', height: '100%' }}
    >
      <Statistic title={title} value={formatMoney(value)} />
      {sub ? <Typography.Text type="secondary">{sub}</Typography.Text> : null}
    </Card>
  );
}

function PortfolioRow() {
  const query = useQuery(dashboardQueries.portfolio());
  return (
    <Widget
      title="资产概况"
      query={query}
      testId="widget-portfolio"
      extra={query.data ? <span data-testid="portfolio-as-of">截至 {query.data.asOf}</span> : null}
    >
      {(p) => (
        <Row gutter={[12, 12]}>
          <Col xs={12} md={8} xl={4}>
            <Figure
              title="在贷本金余额"
              value={p.outstandingPrincipal}
              sub={`${p.contractCount} 份履约中合同`}
              to={effectiveUrl()}
              testId="fig-outstanding"
            />
          </Col>
          <Col xs={12} md={8} xl={4}>
            {/* 应收利息: earned and not received; interest of later days is 未到期 (docs/accounting.md). */}
            <Figure
              title="应收利息"
              value={p.interestReceivable}
              sub={`未到期利息 ${formatMoney(p.interestNotDue)} · 表外利息 ${formatMoney(p.interestOffBalance)}`}
              to={effectiveUrl()}
              testId="fig-interest"
            />
          </Col>
          <Col xs={12} md={8} xl={4}>
            <Figure title="应收费用" value={p.feeReceivable} to={effectiveUrl()} testId="fig-fee" />
          </Col>
          <Col xs={12} md={8} xl={4}>
            <Figure
              title="7天内到期"
              value={p.due7}
              sub={`${p.due7Count} 期`}
              to={dueWithinUrl(p.asOf, 7)}
              testId="fig-due7"
            />
          </Col>
          <Col xs={12} md={8} xl={4}>
            <Figure
              title="30天内到期"
              value={p.due30}
              sub={`${p.due30Count} 期`}
              to={dueWithinUrl(p.asOf, 30)}
              testId="fig-due30"
            />
          </Col>
          <Col xs={12} md={8} xl={4}>
            <Figure
              title="逾期金额"
              value={p.overdueAmount}
              sub={`${p.overdueCount} 期 / ${p.overdueContracts} 份合同，另欠罚息 ${formatMoney(p.overduePenalty)}`}
              to={overdueUrl()}
              testId="fig-overdue"
            />
          </Col>
        </Row>
      )}
    </Widget>
  );
}

function agingOption(rows: readonly AgingRow[]): ChartOption {
  return {
    grid: { left: 16, right: 16, top: 24, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      formatter: (params) => {
        const first = Array.isArray(params) ? params[0] : params;
        const r = rows[first?.dataIndex ?? -1];
        return r ? `${AGING_LABELS[r.bucket]}<br/>金额：${formatMoney(r.amount)}<br/>笔数：${r.count}` : '';
      },
    },
    xAxis: { type: 'category', data: AGING_BUCKETS.map((b) => AGING_LABELS[b]) },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => compact.format(v) } },
    series: [
      {
        type: 'bar',
        name: '逾期金额',
        data: rows.map((r) => plot(r.amount)),
        itemStyle: { color: '#f5222d' },
      },
    ],
  };
}

function AgingChart() {
  const navigate = useNavigate();
  const query = useQuery(dashboardQueries.aging());
  const option = useMemo(() => agingOption(query.data ?? []), [query.data]);
  return (
    <Widget title="逾期账龄" query={query} testId="widget-aging">
      {(rows) =>
        rows.every((r) => r.count === 0) ? (
          <Empty description="没有逾期款项" />
        ) : (
          <>
            <EChart
              option={option}
              height={240}
              onClick={() => void navigate(overdueUrl())}
              testId="aging-chart"
            />
            <table style={{ width: '100%' }} data-testid="aging-table">
              <tbody>
                {rows.map((r) => (
                  <tr key={r.bucket}>
                    <td>{AGING_LABELS[r.bucket]}</td>
                    <td align="right">{formatMoney(r.amount)}</td>
                    <td align="right">{r.count} 期</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )
      }
    </Widget>
  );
}

function TrendChart() {
  const query = useQuery(dashboardQueries.trend());
  const option = useMemo<ChartOption>(() => {
    const points: TrendPoint[] = query.data ?? [];
    return {
      grid: { left: 16, right: 16, top: 40, bottom: 8, containLabel: true },
      legend: { top: 4, data: ['来款', '核销', '新增融资'] },
      tooltip: {
        trigger: 'axis',
        formatter: (params) => {
          const first = Array.isArray(params) ? params[0] : params;
          const p = points[first?.dataIndex ?? -1];
          return p
            ? `${p.month}<br/>来款：${formatMoney(p.incoming)}<br/>核销：${formatMoney(p.writtenOff)}<br/>新增融资（按放款日）：${formatMoney(p.financed)}（${p.contracts} 笔放款）`
            : '';
        },
      },
      xAxis: { type: 'category', data: points.map((p) => p.month) },
      yAxis: { type: 'value', axisLabel: { formatter: (v: number) => compact.format(v) } },
      series: [
        {
          type: 'line',
          name: '来款',
          itemStyle: { color: '#1890ff' },
          data: points.map((p) => plot(p.incoming)),
        },
        {
          type: 'line',
          name: '核销',
          itemStyle: { color: '#52c41a' },
          data: points.map((p) => plot(p.writtenOff)),
        },
        {
          type: 'line',
          name: '新增融资',
          itemStyle: { color: '#faad14' },
          data: points.map((p) => plot(p.financed)),
        },
      ],
    };
  }, [query.data]);
  return (
    <Widget title="月度趋势" query={query} testId="widget-trend">
      {() => <EChart option={option} height={280} testId="trend-chart" />}
    </Widget>
  );
}

function UtilisationBars() {
  const navigate = useNavigate();
  const query = useQuery(dashboardQueries.utilisation());
  const rows: UtilisationRow[] = useMemo(
    () =>
      [...(query.data ?? [])]
        .sort((a, b) => new Decimal(b.occupiedAmount).cmp(a.occupiedAmount))
        .slice(0, 10),
    [query.data],
  );
  const option = useMemo<ChartOption>(
    () => ({
      grid: { left: 16, right: 24, top: 40, bottom: 8, containLabel: true },
      legend: { top: 4, data: ['已占用', '可用'] },
      tooltip: { trigger: 'axis', valueFormatter: (v) => formatMoney(String(v)) },
      xAxis: { type: 'value', axisLabel: { formatter: (v: number) => compact.format(v) } },
      yAxis: { type: 'category', data: rows.map((r) => r.custName) },
      series: [
        { type: 'bar', name: '已占用', stack: 'limit', data: rows.map((r) => plot(r.occupiedAmount)) },
        { type: 'bar', name: '可用', stack: 'limit', data: rows.map((r) => plot(r.availableAmount)) },
      ],
    }),
    [rows],
  );
  return (
    <Widget title="授信额度使用（前10名）" query={query} testId="widget-utilisation">
      {() =>
        rows.length === 0 ? (
          <Empty description="暂无生效的授信额度" />
        ) : (
          <EChart
            option={option}
            height={Math.max(200, rows.length * 36 + 60)}
            onClick={() => void navigate('/factoring/credit/info')}
            testId="utilisation-bars"
          />
        )
      }
    </Widget>
  );
}

/** The staff's start page, titled 工作 (the pinned tab). */
export default function DashboardPage() {
  const name = useSessionStore((s) => s.name);
  const contracts = useHasMenu('ft-contract-info');
  const credit = useHasMenu('ft-credit-info');
  // 五级分类 distribution and migration (docs/classification.md) as of the business date.
  const today = useBizDate().data?.businessDate;
  return (
    <div className="dashboard" data-testid="dashboard">
      <Card size="small">
        <Typography.Title level={4} style={{ margin: 0 }}>
          工作
        </Typography.Title>
        <Typography.Text type="secondary">{name ? `${name}，您好！` : '您好！'}</Typography.Text>
      </Card>
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <NoticeCard />
        {contracts ? (
          <Col span={24}>
            <PortfolioRow />
          </Col>
        ) : null}
        <Col xs={24} xl={contracts ? 12 : 24}>
          <TodoCard pageSize={5} />
        </Col>
        {contracts ? (
          <Col xs={24} xl={12}>
            <AgingChart />
          </Col>
        ) : null}
        {contracts ? (
          <Col xs={24} xl={credit ? 12 : 24}>
            <TrendChart />
          </Col>
        ) : null}
        {credit ? (
          <Col xs={24} xl={contracts ? 12 : 24}>
            <UtilisationBars />
          </Col>
        ) : null}
        {contracts && today ? (
          <Col span={24}>
            <ClassSummaryCard month={today.slice(0, 7)} />
          </Col>
        ) : null}
      </Row>
    </div>
  );
}
