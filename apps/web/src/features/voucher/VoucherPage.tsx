import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Card, Drawer, Form, Input, Select, Space, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { formatMoney } from '@portal/contract/format';
import {
  VOUCHER_DOC_LABELS,
  VOUCHER_DOC_TYPES,
  VOUCHER_FILE_NAME,
  VOUCHER_MENUS,
  VOUCHER_PATHS,
  voucherListSchema,
  type VoucherDocType,
  type VoucherLine,
  type VoucherRow,
} from '@portal/contract/voucher';
import { fieldRules } from '../../shared/form/zod-rule';
import { moneyColumn } from '../../shared/list/columns';
import { ListExportButton } from '../../shared/list/ExportButton';
import { ListPage } from '../../shared/list/ListPage';
import { docViewUrl } from '../../shared/workflow/doc-links';
import type { ScreenProps } from '../../shared/ui/screen';
import { voucherQueries } from './api';
import { PackageExport } from './PackageExport';

const rules = fieldRules(voucherListSchema);

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
  const navigate = useNavigate();
  const [openId, setOpenId] = useState<number | null>(null);
  const one = useQuery(voucherQueries.view(openId));
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
      dataIndex: 'voucherNo',
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
  const exportAs = (format: 'csv' | 'xlsx', label: string) => (
    <ListExportButton
      menu={VOUCHER_MENUS.vouchers}
      path={VOUCHER_PATHS.export}
      fileName={`${VOUCHER_FILE_NAME}.${format}`}
      extra={{ format }}
      label={label}
    />
  );
  const v = one.data;
  return (
    <Card data-testid="vouchers" title="会计凭证">
      <ListPage<VoucherRow>
        source={VOUCHER_PATHS.list}
        rowKey="voucherId"
        sortable={voucherListSchema.sortable}
        filters={
          <>
            <Form.Item name="period" label="会计期间" rules={rules.period}>
              <Input placeholder="YYYY-MM" style={{ width: 110 }} allowClear />
            </Form.Item>
            <Form.Item name="docType" label="来源单据类型">
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 140 }}
                options={VOUCHER_DOC_TYPES.map((t) => ({ value: t, label: VOUCHER_DOC_LABELS[t] }))}
              />
            </Form.Item>
            <Form.Item name="docCode" label="来源单据编号" rules={rules.docCode}>
              <Input style={{ width: 150 }} allowClear />
            </Form.Item>
          </>
        }
        toolbar={
          <Space>
            {exportAs('xlsx', '导出 xlsx')}
            {exportAs('csv', '导出 CSV')}
            <PackageExport />
          </Space>
        }
        columns={columns}
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
