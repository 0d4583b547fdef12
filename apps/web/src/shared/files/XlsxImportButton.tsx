import { useState, type ReactNode } from 'react';
import { Button, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';

/**
 * An xlsx import's file button: it stays loading, and takes no second file, until `read` has
 * answered (a large sheet is parsed and checked by the server for seconds, and a second click
 * meanwhile would read the file twice). `read` reports its own failures; the button only waits.
 */
export function XlsxImportButton({
  read,
  children,
  disabled = false,
}: {
  read: (file: File) => Promise<unknown>;
  children: ReactNode;
  disabled?: boolean;
}) {
  const [reading, setReading] = useState(false);
  return (
    <Upload
      accept=".xlsx"
      showUploadList={false}
      disabled={disabled || reading}
      beforeUpload={(file) => {
        setReading(true);
        void read(file)
          .catch(() => undefined)
          .finally(() => setReading(false));
        return false;
      }}
    >
      <Button icon={<UploadOutlined />} loading={reading} disabled={disabled}>
        {children}
      </Button>
    </Upload>
  );
}
