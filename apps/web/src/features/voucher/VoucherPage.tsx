import { useState } from 'react';
import { useNavigate } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Drawer, Form, Input, Select, Space, Table, Typography, message } from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { formatMoney } from '@portal/contract/format';
import { buttonCode } from '@portal/contract/menus';
import {
  PERIOD_PATTERN,
  VOUCHER_DOC_LABELS,
  VOUCHER_DOC_TYPES,
  VOUCHER_MENUS,
  type VoucherDocType,
  type VoucherLine,
  type VoucherRow,
} from '@portal/contract/voucher';
import { moneyColumn } from '../../shared/list/columns';
import { useButtons } from '../../shared/permission/use-buttons';
import { docViewUrl } from '../../shared/workflow/doc-links';
import type { ScreenProps } from '../../shared/ui/screen';
import { voucherApi } from './api';

interface Filters {
  period?: string;
  docType?: VoucherDocType;
  docCode?: string;
}

/** Blank fields dropped; a malformed period is named before anything is sent. */
function clean(values: Record<string, unknown>): { filters: Filters; error?: string } {
  const f: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    const t = typeof v === 'string' ? v.trim() : v;
    if (t !== undefined && t !== null && t !== '') f[k] = t;
  }
  if (typeof f.period === 'string' && !PERIOD_PATTERN.test(f.period))
    return { filters: {}, error: '会计期间格式应为YYYY-MM' };
  return { filters: f as Filters };
}

const LINE_COLUMNS: TableColumnsType<VoucherLine> = [
  { title: '摘要', dataIndex: 'summary', key: 'summary', width: 220, ellipsis: true },
  { title: '科目编码', dataIndex: 'accountCode', key: 'accountCode', width: 100 },
  { title: '科目名称', dataIndex: 'accountName', key: 'accountName', width: 130 },
  moneyColumn('借方金额', 'debit', { width: 130 }),
  moneyColumn('贷方金额', 'credit', { width: 130 }),
  { title: '辅助核算', dataIndex: 'aux', key: 'aux', width: 260, ellipsis: true },
];

/** 会计凭证: the vouchers of the approved money events, by period and source document. */
export default function VoucherPage(_props: ScreenProps) {
  const [form] = Form.useForm();
  const navigate = useNavigate();
  const [filters, setFilters] = useState<Filters>({});
  const [paging, setPaging] = useState({ pageNum: 1, pageSize: 20 });
  const [error, setError] = useState<string>();
  const [openId, setOpenId] = useState<number | null>(null);
  const canExport = useButtons(VOUCHER_MENUS.vouchers).has(buttonCode(VOUCHER_MENUS.vouchers, 'export'));
  const q = useQuery({
    queryKey: ['voucher', 'list', filters, paging],
    queryFn: () => voucherApi.list({ ...filters, ...paging, orderBy: 'voucherNo', order: 'desc' }),
    placeholderData: keepPreviousData,
  });
  const one = useQuery({
    queryKey: ['voucher', 'view', openId],
    queryFn: () => voucherApi.view(openId!),
    enabled: openId !== null,
  });
  const search = () => {
    const { filters: next, error: bad } = clean(form.getFieldsValue() as Record<string, unknown>);
    setError(bad);
    if (bad) return;
    setFilters(next);
    setPaging((p) => ({ ...p, pageNum: 1 }));
  };
  const exportAs = async (format: 'csv' | 'xlsx') => {
    try {
      await voucherApi.export({ ...filters, format });
      void message.success('导出完成');
    } catch {
      // the request layer has warned
    }
  };
  const source = (docType: VoucherDocType, docCode: string) => {
    const url = docType === 'accrual' ? undefined : docViewUrl(docType, docCode);
    return url ? (
      <Typography.Link onClick={() => void navigate(url)}>
        {VOUCHER_DOC_LABELS[docType]} {docCode}
      </Typography.Link>
    ) : (
      `${VOUCHER_DOC_LABELS[docType]} ${docCode}`
    );
  };
  const columns: TableColumnsType<VoucherRow> = [
    { title: '会计期间', dataIndex: 'period', key: 'period', width: 90 },
    {
      title: '凭证字号',
      key: 'voucherNo',
      width: 100,
      render: (_, r) => (
        <Typography.Link data-testid="voucher-open" onClick={() => setOpenId(r.voucherId)}>
          {r.voucherNo}
        </Typography.Link>
      ),
    },
    { title: '凭证日期', dataIndex: 'voucherDate', key: 'voucherDate', width: 110 },
    { title: '摘要', dataIndex: 'summary', key: 'summary', width: 260, ellipsis: true },
    moneyColumn('金额', 'amount', { width: 140 }),
    { title: '来源单据', key: 'source', width: 220, render: (_, r) => source(r.docType, r.docCode) },
    { title: '冲红原凭证', dataIndex: 'redOfNo', key: 'redOfNo', width: 150 },
  ];
  const v = one.data;
  return (
    <Card data-testid="vouchers" title="会计凭证">
      <Form form={form} layout="inline" onFinish={search} style={{ rowGap: 8 }}>
        <Form.Item name="period" label="会计期间">
          <Input aria-label="会计期间" placeholder="YYYY-MM" style={{ width: 110 }} allowClear />
        </Form.Item>
        <Form.Item name="docType" label="来源单据类型">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 140 }}
            options={VOUCHER_DOC_TYPES.map((t) => ({ value: t, label: VOUCHER_DOC_LABELS[t] }))}
          />
        </Form.Item>
        <Form.Item name="docCode" label="来源单据编号">
          <Input aria-label="来源单据编号" style={{ width: 150 }} allowClear />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">
              查询
            </Button>
            {canExport ? (
              <>
                <Button icon={<DownloadOutlined />} onClick={() => void exportAs('xlsx')}>
                  导出 xlsx
                </Button>
                <Button icon={<DownloadOutlined />} onClick={() => void exportAs('csv')}>
                  导出 CSV
                </Button>
              </>
            ) : null}
          </Space>
        </Form.Item>
      </Form>
      {error ? (
        <Typography.Text type="danger" data-testid="voucher-error">
          {error}
        </Typography.Text>
      ) : null}
      <Table<VoucherRow>
        style={{ marginTop: 12 }}
        size="small"
        rowKey="voucherId"
        loading={q.isFetching}
        columns={columns}
        dataSource={q.data?.list ?? []}
        scroll={{ x: 1100 }}
        pagination={{
          current: paging.pageNum,
          pageSize: paging.pageSize,
          total: q.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (n) => `共 ${n} 张`,
          onChange: (pageNum, pageSize) => setPaging({ pageNum, pageSize }),
        }}
      />
      <Drawer
        open={openId !== null}
        width={960}
        title={v ? `记账凭证 ${v.period} ${v.voucherNo}` : '记账凭证'}
        onClose={() => setOpenId(null)}
      >
        {v ? (
          <>
            <Typography.Paragraph>
              凭证日期 {v.voucherDate}；来源 {source(v.docType, v.docCode)}
              {v.redOfNo ? `；冲红原凭证 ${v.redOfNo}` : ''}
            </Typography.Paragraph>
            <Table<VoucherLine>
              size="small"
              rowKey="lineNo"
              columns={LINE_COLUMNS}
              dataSource={v.lines}
              pagination={false}
              scroll={{ x: 970 }}
              summary={() => (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0} colSpan={3}>
                    <strong>合计</strong>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right">
                    {formatMoney(v.amount)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right">
                    {formatMoney(v.amount)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={5} />
                </Table.Summary.Row>
              )}
            />
          </>
        ) : null}
      </Drawer>
    </Card>
  );
}
