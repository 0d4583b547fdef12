import { API_PREFIX, STATUS, type ApiResponse } from '@portal/contract/api';
import {
  canPreview,
  FILE_PATHS,
  isPdf,
  PREVIEW_UNSUPPORTED_MSG,
  type DownloadTokenResult,
  type FileInfo,
} from '@portal/contract/files';
import { getToken } from '../auth/token';
import { buildUrl, exportFile, post } from '../request/http';
import { showClosableWarning, showWarning } from '../ui/feedback';

/** What a document keeps of an attachment (FileInfo from the upload, or a document's file list). */
export interface FileItem {
  fileToken: string;
  originFileName: string;
  size?: number;
  mime?: string;
  createdAt?: string;
  uploaderName?: string;
}

/**
 * docs/protocol.md "The envelope": multipart uploads carry only the session (no envelope). XHR rather than fetch, for
 * the progress events of the upload list.
 */
export function uploadFile(
  file: File,
  onProgress?: (percent: number) => void,
  signal?: AbortSignal,
): Promise<FileInfo> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_PREFIX}${FILE_PATHS.upload}`);
    const token = getToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: Partial<ApiResponse<FileInfo>> = {};
      try {
        body = JSON.parse(xhr.responseText) as ApiResponse<FileInfo>;
      } catch {
        // not JSON
      }
      if (xhr.status === 200 && body.status === STATUS.ok && body.data) return resolve(body.data);
      const msg = body.msg || `上传失败（${xhr.status}）`;
      showClosableWarning(msg);
      reject(new Error(msg));
    };
    xhr.onerror = () => {
      showWarning('Network Error');
      reject(new Error('Network Error'));
    };
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** A single-use link (one minute) for a new window or an iframe, which cannot send the header. */
export async function signedUrl(item: FileItem, kind: 'preview' | 'download' = 'preview'): Promise<string> {
  const { downloadToken } = await post<DownloadTokenResult>(FILE_PATHS.downloadToken, {
    fileToken: item.fileToken,
  });
  return buildUrl(kind === 'preview' ? FILE_PATHS.preview : FILE_PATHS.originDownload, {
    fileToken: item.fileToken,
    originFileName: item.originFileName,
    downloadToken,
  });
}

/**
 * The preview content fetched with the session header, as an object URL (images: an <img> may
 * load its source more than once, which a single-use link would not survive). Revoke it after use.
 */
export async function previewObjectUrl(item: FileItem): Promise<string> {
  const blob = await exportFile(FILE_PATHS.preview, undefined, {
    envelope: false,
    query: { fileToken: item.fileToken },
    save: false,
  });
  return URL.createObjectURL(blob);
}

/** Downloads with the session header and saves under the original name. */
export async function downloadFile(item: FileItem): Promise<void> {
  await exportFile(FILE_PATHS.originDownload, undefined, {
    envelope: false,
    query: { fileToken: item.fileToken, originFileName: item.originFileName },
    fileName: item.originFileName,
  });
}

export type PreviewKind = 'pdf' | 'image';

/** Preview only pdf, jpg, png, gif, jpeg; anything else warns and answers null. */
export function previewKind(item: FileItem): PreviewKind | null {
  if (!canPreview(item.originFileName)) {
    showWarning(PREVIEW_UNSUPPORTED_MSG);
    return null;
  }
  return isPdf(item.originFileName) ? 'pdf' : 'image';
}

export function listDocumentFiles(docType: string, docCode: string): Promise<FileInfo[]> {
  return post<FileInfo[]>(FILE_PATHS.list, { docType, docCode });
}
