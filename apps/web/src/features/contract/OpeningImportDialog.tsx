import { useState } from 'react';
import { Alert, Button, Modal, Space, Table, Tag } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { CONTRACT_PATHS } from '@portal/contract/contract';
import { formatMoney } from '@portal/contract/format';
import {
  OPENING_CONTRACT_SHEET,
  OPENING_PAID_SHEET,
  OPENING_TEMPLATE_FILE_NAME,
  type OpeningMode,
  type OpeningPreview,
  type OpeningResult,
} from '@portal/contract/opening';
import { exportFile } from '../../shared/request/http';
import { postXlsx } from '../../shared/request/upload-xlsx';
import { formatMoneyText } from '../../shared/form/MoneyInput';
import { showSuccess } from '../../shared/ui/feedback';
import { XlsxImportButton } from '../../shared/files/XlsxImportButton';

/**
 * 期初导入 (docs/money-lifecycle.md "Opening balances"): the template, the file previewed row by
 * row (a trial import the server rolls back), then every row or the valid ones imported. The file
 * is sent again on import: the server checks it again under its locks.
 */
export function OpeningImportDialog({ open, onClose }: { open: boolean; onClose: (saved: boolean) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<OpeningPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const close = (saved: boolean) => {
    setFile(null);
    setPreview(null);
    onClose(saved);
  };
  const run = async (mode: OpeningMode) => {
    if (!file) return;
    setBusy(true);
    const r = await postXlsx<OpeningResult>(CONTRACT_PATHS.openingImport, file, { mode }).catch(() => null);
    setBusy(false);
    if (!r) return;
    showSuccess(`已导入 ${r.imported.length} 份合同`);
    close(true);
  };
  const good = preview?.rows.filter((r) => r.errors.length === 0).length ?? 0;
  const bad = (preview?.rows.length ?? 0) - good;
  return (
    <Modal
      open={open}
      width={1100}
      title="期初导入"
      onCancel={() => close(false)}
      footer={
        <Space>
          <Button onClick={() => close(false)}>取消</Button>
          <Button disabled={!preview || good === 0 || busy} onClick={() => void run('valid')}>
            仅导入有效的 {good} 行
          </Button>
          <Button
            type="primary"
            disabled={!preview?.ok || busy}
            loading={busy}
            onClick={() => void run('all')}
          >
            全部导入
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert
          type="info"
          showIcon
          message={`模板含两张表：「${OPENING_CONTRACT_SHEET}」每行一份在履约合同，「${OPENING_PAID_SHEET}」每行一期已还金额。导入的合同为已审核、已放款，占用额度并生成期初凭证；同一合同号不能重复导入。`}
        />
        <Space>
          <XlsxImportButton
            disabled={busy}
            read={(f) => {
              // Busy for the dialog too: its buttons would otherwise import the new file by the old preview.
              setBusy(true);
              setFile(f);
              return postXlsx<OpeningPreview>(CONTRACT_PATHS.openingPreview, f)
                .then(setPreview, () => setPreview(null))
                .finally(() => setBusy(false));
            }}
          >
            选择xlsx文件
          </XlsxImportButton>
          <Button
            icon={<DownloadOutlined />}
            onClick={() =>
              void exportFile(
                CONTRACT_PATHS.openingTemplate,
                {},
                { fileName: OPENING_TEMPLATE_FILE_NAME },
              ).catch(() => undefined)
            }
          >
            下载模板
          </Button>
        </Space>
        {preview ? (
          <>
            <div data-testid="opening-import-summary">
              共 {preview.rows.length} 行，有效 {good} 行，有误 {bad} 行；有效行本金余额合计{' '}
              {formatMoney(preview.principalOutstanding)}
            </div>
            <Table
              size="small"
              rowKey="row"
              pagination={false}
              scroll={{ y: 360 }}
              dataSource={preview.rows}
              data-testid="opening-import-preview"
              columns={[
                { title: '行', dataIndex: 'row', key: 'row', width: 60 },
                { title: '合同号', key: 'contractNo', render: (_, r) => r.item.contractNo },
                { title: '债务人', key: 'debtorName', render: (_, r) => r.item.debtorName },
                {
                  title: '融资金额',
                  key: 'financingAmount',
                  align: 'right',
                  render: (_, r) => formatMoneyText(r.item.financingAmount),
                },
                { title: '放款日', key: 'loanDate', render: (_, r) => r.item.loanDate },
                {
                  title: '本金余额',
                  key: 'principalOutstanding',
                  align: 'right',
                  render: (_, r) => (r.figures ? formatMoney(r.figures.principalOutstanding) : ''),
                },
                {
                  title: '校验结果',
                  key: 'errors',
                  render: (_, r) =>
                    r.errors.length ? (
                      <Space direction="vertical" size={0}>
                        {r.errors.map((e) => (
                          <span key={e} style={{ color: '#cf1322' }}>
                            {e}
                          </span>
                        ))}
                      </Space>
                    ) : (
                      <Tag color="green">通过</Tag>
                    ),
                },
              ]}
            />
          </>
        ) : null}
      </Space>
    </Modal>
  );
}
