import { useRef, useState } from 'react';
import {
  DeleteOutlined,
  DownloadOutlined,
  EyeOutlined,
  PaperClipOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { Button, Empty, Image, List, Modal, Popconfirm, Progress, Space, Typography, Upload } from 'antd';
import { formatFileSize, UPLOAD_ACCEPT } from '@portal/contract/files';
import { formatDateTime } from '@portal/contract/format';
import { confirmAction } from '../ui/feedback';
import {
  downloadFile,
  previewKind,
  previewObjectUrl,
  signedUrl,
  uploadFile,
  type FileItem,
  type PreviewKind,
} from './files-api';

export interface FileListProps {
  /** The document's attachments (controlled; works as an antd Form.Item value). */
  value?: FileItem[];
  onChange?: (files: FileItem[]) => void;
  /** View only: no upload, no remove. */
  readOnly?: boolean;
  /** At most this many files (default 20). */
  max?: number;
  /** Told when the first upload starts and when the last one ends (shared/files/upload-guard.ts). */
  onUploadingChange?: (uploading: boolean) => void;
}

interface Pending {
  uid: string;
  name: string;
  percent: number;
}

/**
 * The attachments of a document (every document uses it): upload with progress, list with
 * preview (PDF in a viewer, images), download after confirmation, and remove. The value is the
 * list of fileTokens the document's save call sends.
 */
export function FileList({
  value = [],
  onChange,
  readOnly = false,
  max = 20,
  onUploadingChange,
}: FileListProps) {
  const [pending, setPending] = useState<Pending[]>([]);
  // Counted outside React state: a save pressed right after the file was chosen must already see it.
  const inFlight = useRef(0);
  // Several uploads finish one after another: each appends to the latest value.
  const valueRef = useRef(value);
  valueRef.current = value;
  const [preview, setPreview] = useState<{ kind: PreviewKind; url: string; name: string } | null>(null);

  const open = async (item: FileItem) => {
    const kind = previewKind(item);
    if (!kind) return;
    // A PDF opens in the browser's viewer through a single-use link; images from a blob.
    const url = kind === 'pdf' ? await signedUrl(item, 'preview') : await previewObjectUrl(item);
    setPreview({ kind, url, name: item.originFileName });
  };

  const download = async (item: FileItem) => {
    if (!(await confirmAction(`确定要下载附件「${item.originFileName}」吗？`))) return;
    await downloadFile(item);
  };

  const upload = async (file: File) => {
    const uid = `${Date.now()}-${file.name}`;
    setPending((p) => [...p, { uid, name: file.name, percent: 0 }]);
    if (inFlight.current++ === 0) onUploadingChange?.(true);
    let info: FileItem | undefined;
    try {
      info = await uploadFile(file, (percent) =>
        setPending((p) => p.map((x) => (x.uid === uid ? { ...x, percent } : x))),
      );
    } catch {
      // the request layer has shown the reason
    } finally {
      setPending((p) => p.filter((x) => x.uid !== uid));
      if (--inFlight.current === 0) onUploadingChange?.(false);
    }
    if (!info) return;
    const next = [...valueRef.current, { ...info }];
    valueRef.current = next;
    onChange?.(next);
  };

  return (
    <div className="file-list" data-testid="file-list">
      {!readOnly ? (
        <Upload
          accept={UPLOAD_ACCEPT}
          multiple
          showUploadList={false}
          disabled={value.length >= max}
          beforeUpload={(file) => {
            void upload(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} disabled={value.length >= max}>
            上传附件
          </Button>
          <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
            支持PDF、图片、Excel、Word、文本
          </Typography.Text>
        </Upload>
      ) : null}
      {pending.map((p) => (
        <div key={p.uid} className="file-list__pending">
          <PaperClipOutlined /> {p.name}
          <Progress percent={p.percent} size="small" />
        </div>
      ))}
      {value.length === 0 && pending.length === 0 ? (
        readOnly ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无附件" />
        ) : null
      ) : (
        <List
          size="small"
          dataSource={value}
          rowKey="fileToken"
          renderItem={(item) => (
            <List.Item
              data-testid="file-item"
              actions={[
                <Button
                  key="preview"
                  type="link"
                  size="small"
                  icon={<EyeOutlined />}
                  onClick={() => void open(item)}
                >
                  预览
                </Button>,
                <Button
                  key="download"
                  type="link"
                  size="small"
                  icon={<DownloadOutlined />}
                  onClick={() => void download(item)}
                >
                  下载
                </Button>,
                ...(readOnly
                  ? []
                  : [
                      <Popconfirm
                        key="remove"
                        title="确定要移除该附件吗？"
                        onConfirm={() => onChange?.(value.filter((f) => f.fileToken !== item.fileToken))}
                      >
                        <Button type="link" size="small" danger icon={<DeleteOutlined />}>
                          移除
                        </Button>
                      </Popconfirm>,
                    ]),
              ]}
            >
              <Space>
                <PaperClipOutlined />
                <span className="file-list__name">{item.originFileName}</span>
                {item.size !== undefined ? (
                  <Typography.Text type="secondary">{formatFileSize(item.size)}</Typography.Text>
                ) : null}
                {item.uploaderName ? (
                  <Typography.Text type="secondary">
                    {item.uploaderName} {formatDateTime(item.createdAt)}
                  </Typography.Text>
                ) : null}
              </Space>
            </List.Item>
          )}
        />
      )}
      <Modal
        open={!!preview && preview.kind === 'pdf'}
        title={preview?.name}
        width="80vw"
        footer={null}
        destroyOnHidden
        onCancel={() => setPreview(null)}
      >
        {preview?.kind === 'pdf' ? (
          <iframe
            data-testid="pdf-viewer"
            title={preview.name}
            src={preview.url}
            style={{ width: '100%', height: '75vh', border: 0 }}
          />
        ) : null}
      </Modal>
      {preview?.kind === 'image' ? (
        <Image
          style={{ display: 'none' }}
          src={preview.url}
          preview={{
            open: true,
            onOpenChange: (v) => {
              if (v) return;
              URL.revokeObjectURL(preview.url);
              setPreview(null);
            },
          }}
        />
      ) : null}
    </div>
  );
}
