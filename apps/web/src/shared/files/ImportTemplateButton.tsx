import { useState } from 'react';
import { Button } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { IMPORT_TEMPLATE_PATH, IMPORT_TEMPLATES, type ImportKind } from '@portal/contract/import-templates';
import { exportFile } from '../request/http';

/**
 * 下载模板 beside an xlsx import: the server's template for `kind`, whose header row is exactly
 * what the import reads (docs/protocol.md "Imports").
 */
export function ImportTemplateButton({ kind }: { kind: ImportKind }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      icon={<DownloadOutlined />}
      loading={busy}
      onClick={() => {
        setBusy(true);
        void exportFile(IMPORT_TEMPLATE_PATH, { kind }, { fileName: IMPORT_TEMPLATES[kind].fileName })
          .catch(() => undefined)
          .finally(() => setBusy(false));
      }}
    >
      下载模板
    </Button>
  );
}
