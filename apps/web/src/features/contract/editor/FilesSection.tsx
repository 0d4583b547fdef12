import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { CONTRACT_PATHS } from '@portal/contract/contract';
import { FileList } from '../../../shared/files/FileList';
import { useUploadGuard } from '../../../shared/files/upload-guard';
import type { FileItem } from '../../../shared/files/files-api';
import { contractQueries } from '../api';
import type { ContractDoc } from './contract-doc';
import { useFormFill } from '../../../shared/editor/use-form-fill';

/** 附件: the contract's attachments, saved as a whole. */
export function FilesSection({ doc }: { doc: ContractDoc }) {
  const { bizCode, editable } = doc;
  const stored = useQuery(contractQueries.files(bizCode));
  const [files, setFiles] = useState<FileItem[]>([]);
  useFormFill(stored, setFiles);
  const guard = useUploadGuard();
  const save = () =>
    guard.settled() &&
    doc.save({
      path: CONTRACT_PATHS.fileSave,
      body: { contBizCode: bizCode, version: doc.version, fileTokens: files.map((f) => f.fileToken) },
      what: '附件',
    });

  return (
    <div data-testid="files-tab">
      <FileList
        value={files}
        onChange={setFiles}
        readOnly={!editable}
        onUploadingChange={guard.onUploadingChange}
      />
      <Button type="primary" style={{ marginTop: 12 }} onClick={() => void save()} disabled={!editable}>
        保存
      </Button>
    </div>
  );
}
