import { Alert, Modal, Table, Typography } from 'antd';
import type { ImportPreview } from '@portal/contract/contract';
import { formatMoneyText } from '../../../shared/form/MoneyInput';

/** The money columns: shown with separators, extra decimals kept visible (such a row is an error). */
const MONEY_COLUMNS = new Set(['amount', 'principal']);

const COLUMN_LABELS: Record<string, string> = {
  invoiceCode: '发票代码',
  invoiceNo: '发票号码',
  invoiceDate: '开票日期',
  amount: '金额',
  debtorName: '债务人',
  dueDate: '到期日',
  principal: '本金',
};

/** An import's rows with their errors; taking them over is possible only when no row has one. */
export function ImportPreviewModal<T>({
  title,
  preview,
  columns,
  onOk,
  onCancel,
}: {
  title: string;
  preview: ImportPreview<T> | null;
  columns: string[];
  onOk: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal
      title={title}
      open={!!preview}
      width={960}
      onCancel={onCancel}
      onOk={onOk}
      okText="导入"
      okButtonProps={{ disabled: !preview?.ok }}
    >
      {preview && !preview.ok ? (
        <Alert
          type="error"
          showIcon
          message="存在错误的行，请修改文件后重新导入"
          style={{ marginBottom: 8 }}
        />
      ) : null}
      <Table<ImportPreview<T>['rows'][number]>
        size="small"
        rowKey="row"
        pagination={false}
        dataSource={preview?.rows ?? []}
        data-testid="import-preview"
        columns={[
          { title: '行', dataIndex: 'row', key: 'row', width: 48 },
          ...columns.map((c) => ({
            title: COLUMN_LABELS[c] ?? c,
            key: c,
            align: MONEY_COLUMNS.has(c) ? ('right' as const) : undefined,
            render: (_: unknown, r: ImportPreview<T>['rows'][number]) => {
              const v = (r.item as Record<string, string | undefined>)[c] ?? '';
              return MONEY_COLUMNS.has(c) ? formatMoneyText(v) : v;
            },
          })),
          {
            title: '错误',
            key: 'errors',
            render: (_: unknown, r: { errors: string[] }) => (
              <Typography.Text type="danger">{r.errors.join('；')}</Typography.Text>
            ),
          },
        ]}
      />
    </Modal>
  );
}
