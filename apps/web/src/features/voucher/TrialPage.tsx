import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { formatMoney } from '@portal/contract/format';
import {
  PERIOD_PATTERN,
  TRIAL_FILE_NAME,
  VOUCHER_MENUS,
  VOUCHER_PATHS,
  type TrialRow,
} from '@portal/contract/voucher';
import { ExportButton } from '../../shared/list/ExportButton';
import { moneyColumn } from '../../shared/list/columns';
import type { ScreenProps } from '../../shared/ui/screen';
import { currentPeriod, voucherQueries } from './api';

const MONEY: [keyof TrialRow, string][] = [
  ['openingDebit', '期初借方'],
  ['openingCredit', '期初贷方'],
  ['debit', '本期借方'],
  ['credit', '本期贷方'],
  ['closingDebit', '期末借方'],
  ['closingCredit', '期末贷方'],
];

const COLUMNS: TableColumnsType<TrialRow> = [
  { title: '科目编码', dataIndex: 'accountCode', key: 'accountCode', width: 100 },
  { title: '科目名称', dataIndex: 'accountName', key: 'accountName', width: 140 },
  ...MONEY.map(([key, title]) => moneyColumn<TrialRow>(title, key, { width: 140 })),
];

/** 试算平衡 (科目余额表) of a period: opening, movement and closing of every account. */
export default function TrialPage(_props: ScreenProps) {
  const [form] = Form.useForm<{ period: string }>();
  const [period, setPeriod] = useState(currentPeriod());
  const [error, setError] = useState<string>();
  const q = useQuery(voucherQueries.trial(period));
  const search = ({ period: p }: { period: string }) => {
    const v = (p ?? '').trim();
    if (!PERIOD_PATTERN.test(v)) {
      setError('会计期间格式应为YYYY-MM');
      return;
    }
    setError(undefined);
    setPeriod(v);
  };
  const tb = q.data;
  return (
    <Card data-testid="voucher-trial" title="试算平衡">
      <Form form={form} layout="inline" onFinish={search} initialValues={{ period }}>
        <Form.Item name="period" label="会计期间">
          <Input aria-label="会计期间" placeholder="YYYY-MM" style={{ width: 110 }} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            查询
          </Button>
        </Form.Item>
        <Form.Item>
          <ExportButton
            menu={VOUCHER_MENUS.trial}
            path={VOUCHER_PATHS.trialExport}
            fileName={`${TRIAL_FILE_NAME}.xlsx`}
            body={() => ({ period })}
          />
        </Form.Item>
        {tb ? (
          <Form.Item>
            {tb.balanced ? <Tag color="green">借贷平衡</Tag> : <Tag color="red">借贷不平衡</Tag>}
          </Form.Item>
        ) : null}
      </Form>
      {error ? <Typography.Text type="danger">{error}</Typography.Text> : null}
      <Table<TrialRow>
        style={{ marginTop: 12 }}
        size="small"
        rowKey="accountCode"
        loading={q.isFetching}
        columns={COLUMNS}
        dataSource={tb?.rows ?? []}
        pagination={false}
        scroll={{ x: 1100 }}
        summary={() =>
          tb ? (
            <Table.Summary.Row data-testid="trial-totals">
              <Table.Summary.Cell index={0} colSpan={2}>
                <strong>合计</strong>
              </Table.Summary.Cell>
              {MONEY.map(([key], i) => (
                <Table.Summary.Cell key={key} index={i + 2} align="right">
                  {formatMoney(tb.totals[key as keyof typeof tb.totals])}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          ) : null
        }
      />
    </Card>
  );
}
