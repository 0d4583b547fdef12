import { z } from 'zod';
import { forbiddenCharsMessage, hasForbiddenChars } from './fields';

/**
 * Paths (docs/protocol.md "Paths and methods"): upload, download, origin download and preview (all under
 * /api).
 */
export const FILE_PATHS = {
  upload: '/admin/portal/third/file/store',
  download: '/admin/portal/third/file/down/load',
  originDownload: '/admin/portal/third/file/origin/down/load',
  preview: '/admin/portal/third/file/preview',
  /** docs/protocol.md "Sessions": a short-lived single-use token for a link opened in a new window. */
  downloadToken: '/admin/portal/third/file/downloadToken',
  /** The files attached to one document. */
  list: '/admin/portal/third/file/list',
} as const;

export const FILE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,64}$/;
export const fileToken = z
  .string({
    error: (i) => (i.input === undefined || i.input === null ? '附件标识不能为空' : '附件标识格式不正确'),
  })
  .regex(FILE_TOKEN_PATTERN, '附件标识格式不正确');

export const DOC_TYPE_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;
export const docType = z.string({ error: '单据类型不能为空' }).regex(DOC_TYPE_PATTERN, '单据类型格式不正确');
export const docCode = z
  .string({ error: '单据编号不能为空' })
  .regex(/^[A-Za-z0-9_-]{1,40}$/, '单据编号格式不正确');

export const downloadTokenSchema = z.object({ fileToken });
export const fileListSchema = z.object({ docType, docCode });

/** GET query of the download / preview URLs: session header or a downloadToken. */
export const fileGetQuery = z.object({
  fileToken,
  originFileName: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string({ error: '文件名格式不正确' })
      .max(255, '文件名不能超过255个字符')
      .refine((v) => !hasForbiddenChars(v), forbiddenCharsMessage('文件名'))
      .optional(),
  ),
  downloadToken: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string({ error: '下载令牌格式不正确' })
      .regex(/^[A-Za-z0-9_-]{20,64}$/, '下载令牌格式不正确')
      .optional(),
  ),
});

export interface FileInfo {
  fileToken: string;
  originFileName: string;
  size: number;
  mime: string;
  sha256: string;
  docType: string | null;
  docCode: string | null;
  uploaderName: string;
  createdAt: string;
}

export interface DownloadTokenResult {
  downloadToken: string;
  expiresAt: string;
}

/** The kinds of content the server accepts (sniffed from the bytes, not the name). */
export const ALLOWED_UPLOAD_EXTENSIONS = [
  'pdf',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'xlsx',
  'docx',
  'txt',
  'csv',
] as const;
export const UPLOAD_ACCEPT = ALLOWED_UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(',');

/** docs/protocol.md "The web client": preview only for these; anything else warns PREVIEW_UNSUPPORTED_MSG. */
export const PREVIEW_EXTENSIONS = ['pdf', 'jpg', 'png', 'gif', 'jpeg'] as const;
export const PREVIEW_UNSUPPORTED_MSG = '该附件格式不支持预览！';

export function fileExtension(name: string): string {
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(name.trim());
  return m ? m[1]!.toLowerCase() : '';
}

export function canPreview(name: string): boolean {
  return (PREVIEW_EXTENSIONS as readonly string[]).includes(fileExtension(name));
}

export function isPdf(name: string): boolean {
  return fileExtension(name) === 'pdf';
}

/** 1.5 MB style sizes for file lists. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The refusal of a file over the upload limit names the limit (issue 40): 「上传文件超过大小限制（最大10MB）」. */
export function uploadTooLargeMessage(limitBytes: number): string {
  const mb = limitBytes / (1024 * 1024);
  const size = Number.isInteger(mb) ? `${mb}MB` : `${Math.max(1, Math.round(limitBytes / 1024))}KB`;
  return `上传文件超过大小限制（最大${size}）`;
}
