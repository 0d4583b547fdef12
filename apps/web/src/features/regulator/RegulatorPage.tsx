import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Form, Input, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { ASSET_CLASS_LABELS, UNCLASSIFIED_LABEL } from '@portal/contract/classification';
import { PRODUCT_LABELS, RECOURSE_LABELS } from '@portal/contract/credit';
import { formatMoney } from '@portal/contract/format';
import { OVERDUE_BUCKET_LABELS } from '@portal/contract/ledger';
import {
  REGULATOR_FILE_NAME,
  REGULATOR_MENU,
  REGULATOR_PATHS,
  type RegulatorReport,
} from '@portal/contract/regulator';
import { PERIOD_PATTERN } from '@portal/contract/voucher';
import { ExportButton } from '../../shared/list/ExportButton';
import { moneyColumn } from '../../shared/list/columns';
import type { ScreenProps } from '../../shared/ui/screen';
import { regulatorQueries } from './api';

type Row = RegulatorReport['byProduct'][number];
type Debtor = RegulatorReport['topDebtors'][number];
const count = { title: '笔数', dataIndex: 'contracts', key: 'contracts', width: 80 };

/**
 * 监管报表: the month's figures for the regulator, from the ledger of the month's last business date
 * (docs/ledger.md "The regulator's figures").
 */
export default function RegulatorPage(_props: ScreenProps) {
  const [month, setMonth] = useState(() => {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
  });
  const [error, setError] = useState<string>();
  const q = useQuery(regulatorQueries.report(month));
  const r = q.data;
  const search = ({ month: m }: { month: string }) => {
    const v = (m ?? '').trim();
    if (!PERIOD_PATTERN.test(v)) return setError('报表月份格式应为YYYY-MM');
    setError(undefined);
    setMonth(v);
  };
  const products: TableColumnsType<Row> = [
    { title: '产品', key: 'product', width: 140, render: (_, x) => PRODUCT_LABELS[x.product] },
    { title: '追索权', key: 'recourse', width: 100, render: (_, x) => RECOURSE_LABELS[x.recourse] },
    count,
    moneyColumn<Row>('本金余额', 'principal', { width: 150 }),
    moneyColumn<Row>('应收利息', 'interest', { width: 130 }),
    moneyColumn<Row>('应收费用', 'fee', { width: 130 }),
  ];
  const table = <T extends object>(testId: string, rows: T[], columns: TableColumnsType<T>, key: string) => (
    <Table<T>
      data-testid={testId}
      size="small"
      rowKey={key}
      columns={columns}
      dataSource={rows}
      pagination={false}
      style={{ marginBottom: 16 }}
    />
  );
  return (
    <Card data-testid="regulator" title="监管报表">
      <Form layout="inline" onFinish={search} initialValues={{ month }}>
        <Form.Item name="month" label="报表月份">
          <Input aria-label="报表月份" placeholder="YYYY-MM" style={{ width: 110 }} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            查询
          </Button>
        </Form.Item>
        <Form.Item>
          <ExportButton
            menu={REGULATOR_MENU}
            path={REGULATOR_PATHS.export}
            fileName={`${REGULATOR_FILE_NAME}_${month}.xlsx`}
            body={() => ({ month })}
          />
        </Form.Item>
      </Form>
      {error ? <Typography.Text type="danger">{error}</Typography.Text> : null}
      {r ? (
        <div style={{ marginTop: 12 }}>
          <Descriptions size="small" column={4} data-testid="regulator-totals" style={{ marginBottom: 16 }}>
            <Descriptions.Item label="数据日期">{r.asOf}</Descriptions.Item>
            <Descriptions.Item label="在贷笔数">{r.totals.contracts}</Descriptions.Item>
            <Descriptions.Item label="本金余额">{formatMoney(r.totals.principal)}</Descriptions.Item>
            <Descriptions.Item label="应收利息">{formatMoney(r.totals.interest)}</Descriptions.Item>
            <Descriptions.Item label="本月新增笔数">{r.newBusiness.contracts}</Descriptions.Item>
            <Descriptions.Item label="本月新增融资">{formatMoney(r.newBusiness.financing)}</Descriptions.Item>
            <Descriptions.Item label="前十大债务人占比">{r.topDebtorsShare}%</Descriptions.Item>
            <Descriptions.Item label="关联方本金余额">
              {formatMoney(r.relatedParty.principal)}（{r.relatedParty.share}%）
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>期末余额（按产品及追索权）</Typography.Title>
          {table('regulator-products', r.byProduct, products, 'product')}
          <Typography.Title level={5}>逾期分布</Typography.Title>
          {table(
            'regulator-overdue',
            r.overdue,
            [
              {
                title: '逾期区间',
                key: 'bucket',
                width: 140,
                render: (_, x) => OVERDUE_BUCKET_LABELS[x.bucket],
              },
              count,
              moneyColumn('本金余额', 'principal', { width: 150 }),
              moneyColumn('逾期金额', 'overdueAmount', { width: 150 }),
            ],
            'bucket',
          )}
          <Typography.Title level={5}>五级分类分布</Typography.Title>
          {table(
            'regulator-classes',
            r.classes.map((c) => ({ ...c, key: c.assetClass ?? 'none' })),
            [
              {
                title: '五级分类',
                key: 'assetClass',
                width: 140,
                render: (_, x) => (x.assetClass ? ASSET_CLASS_LABELS[x.assetClass] : UNCLASSIFIED_LABEL),
              },
              count,
              moneyColumn('本金余额', 'principal', { width: 150 }),
            ],
            'key',
          )}
          <Typography.Title level={5}>前十大债务人集中度</Typography.Title>
          {table<Debtor>(
            'regulator-debtors',
            r.topDebtors,
            [
              { title: '排名', dataIndex: 'rank', key: 'rank', width: 60 },
              { title: '债务人', dataIndex: 'debtor', key: 'debtor', width: 240 },
              count,
              moneyColumn<Debtor>('本金余额', 'principal', { width: 150 }),
              { title: '占比（%）', dataIndex: 'share', key: 'share', width: 100 },
            ],
            'rank',
          )}
        </div>
      ) : null}
    </Card>
  );
}
