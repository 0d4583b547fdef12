import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { PrinterOutlined } from '@ant-design/icons';
import { Button, Dropdown, Modal, type MenuProps } from 'antd';
import { buttonCode } from '@portal/contract/menus';
import { BIZ_TYPE_LABELS, BIZ_TYPE_MENUS, type BizType } from '@portal/contract/print';
import { ApiError } from '../request/http';
import { useButtons } from '../permission/use-buttons';
import { documentPdf, pdfQueries, previewDocument } from './api';

type Action = 'html' | 'pdf' | 'download';

/**
 * 打印 on a document's view page: for each printable type of the document (all of one screen, as
 * a contract and its repayment notice), the PDF in a viewer, the PDF downloaded, or the HTML
 * preview. Shown only to holders of the screen's 打印 button.
 */
export function PrintButton({
  docCode,
  types,
}: {
  docCode: string;
  types: readonly [BizType, ...BizType[]];
}) {
  const menu = BIZ_TYPE_MENUS[types[0]];
  const canPrint = useButtons(menu).has(buttonCode(menu, 'print'));
  const [viewer, setViewer] = useState<{ url: string; title: string } | null>(null);
  const pdfStatus = useQuery(pdfQueries.status(canPrint));
  useEffect(() => () => (viewer ? URL.revokeObjectURL(viewer.url) : undefined), [viewer]);
  if (!canPrint) return null;

  const run = async (type: BizType, action: Action) => {
    try {
      if (action === 'html') await previewDocument({ bizType: type, docCode });
      else if (action === 'download') await documentPdf(type, docCode, 'attachment');
      else {
        const blob = await documentPdf(type, docCode, 'inline');
        setViewer({ url: URL.createObjectURL(blob), title: `${BIZ_TYPE_LABELS[type]} ${docCode}` });
      }
    } catch (err) {
      // The request layer has shown the server's message (没有启用的…模板, 无权限 …).
      if (!(err instanceof ApiError)) throw err;
    }
  };

  // Without PDFs on this server the two PDF entries are greyed out with the reason; 预览 prints.
  const noPdf = pdfStatus.data && !pdfStatus.data.available ? (pdfStatus.data.reason ?? '') : null;
  const pdfEntry = (key: string, label: string) =>
    noPdf === null
      ? { key, label }
      : { key, label: <span title={noPdf}>{label}（不可用）</span>, disabled: true };
  const entries = (type: BizType): NonNullable<MenuProps['items']> => [
    pdfEntry(`${type}:pdf`, '查看PDF'),
    pdfEntry(`${type}:download`, '下载PDF'),
    { key: `${type}:html`, label: '预览' },
    ...(noPdf
      ? [{ key: `${type}:why`, label: noPdf, disabled: true, 'data-testid': 'pdf-unavailable' }]
      : []),
  ];
  const items: MenuProps['items'] =
    types.length === 1
      ? entries(types[0])
      : types.map((t) => ({ type: 'group', key: t, label: BIZ_TYPE_LABELS[t], children: entries(t) }));

  return (
    <>
      <Dropdown
        menu={{
          items,
          onClick: ({ key }) => {
            const [type, action] = key.split(':') as [BizType, Action];
            void run(type, action);
          },
        }}
      >
        <Button icon={<PrinterOutlined />} data-testid="print-button">
          打印
        </Button>
      </Dropdown>
      <Modal
        open={!!viewer}
        title={viewer?.title}
        width="80%"
        footer={null}
        destroyOnHidden
        onCancel={() => setViewer(null)}
      >
        {viewer ? (
          <iframe
            data-testid="print-pdf-viewer"
            title={viewer.title}
            src={viewer.url}
            style={{ width: '100%', height: '75vh', border: 0 }}
          />
        ) : null}
      </Modal>
    </>
  );
}
