import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import {
  downloadTokenSchema,
  FILE_PATHS,
  fileGetQuery,
  fileListSchema,
  PREVIEW_UNSUPPORTED_MSG,
} from '@portal/contract/files';
import type { PortalModule } from '../../platform/module';
import { resolveSession } from '../../platform/auth/sessions';
import { contentDisposition, XLSX_MIME } from '../../platform/http/download';
import { templateXlsx } from '../../platform/xlsx';
import {
  IMPORT_TEMPLATE_PATH,
  IMPORT_TEMPLATES,
  importTemplateSchema,
} from '@portal/contract/import-templates';
import { badInput, noSession, notFound } from '../../platform/errors';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/client';
import {
  consumeDownloadToken,
  downloadTokenOwner,
  fileVisible,
  findFile,
  issueDownloadToken,
  listDocumentFiles,
  storeUpload,
} from './service';
import type { files } from './schema';
import { localStore } from './storage';
import { parseRange } from './range';
import { sanitizeFileName } from './sniff';

type FileRow = typeof files.$inferSelect;

const PREVIEWABLE = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/gif']);

function bearer(req: FastifyRequest): string | undefined {
  return /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(req.headers.authorization ?? '')?.[1];
}

/**
 * Downloads accept the session header of a user who may view the file's document, or a
 * single-use download token (docs/protocol.md "Sessions") issued to such a user: sent with a session, only that
 * same user's. Whoever may not see the file gets the answer of a missing one, or without any
 * session the answer of a missing session. The session was resolved as the call arrived
 * (identifyCaller).
 */
async function authorize(
  db: Db,
  req: FastifyRequest,
  file: FileRow | undefined,
  downloadToken: string | undefined,
): Promise<FileRow> {
  const user = req.user;
  if (file) {
    const allowed = downloadToken
      ? await consumeDownloadToken(db, downloadToken, file.id, user?.userId)
      : user !== undefined && (await fileVisible(db, file, user));
    if (allowed) return file;
  }
  if (!user) throw noSession();
  throw notFound('附件');
}

/**
 * The user a download or preview counts against (SECURITY.md "Rate limits"): these calls are public
 * (a browser opens them with a download token and no header), so the platform resolves no session
 * for them. Their session's user, else the owner of the download token they carry; only a call
 * proving neither counts in its address's anonymous allowance.
 */
async function identifyCaller(db: Db, config: Config, req: FastifyRequest): Promise<void> {
  const token = bearer(req);
  const user = token ? await resolveSession(db, token, config.sessionIdleMs) : undefined;
  if (user) {
    req.user = user;
    return;
  }
  const parsed = fileGetQuery.safeParse(req.query);
  if (parsed.success && parsed.data.downloadToken)
    req.rateUserId = await downloadTokenOwner(db, parsed.data.downloadToken);
}

export const filesModule: PortalModule = {
  name: 'files',
  async register({ app, api, db, config }) {
    app.addHook('onRequest', async (req) => {
      if (req.routeOptions.config.perm === 'public') await identifyCaller(db, config, req);
    });
    const root = join(config.dataDir, 'files');
    // The S3 SDK is loaded only when configured: it alone costs every server test file's worker
    // about 0.2 s of CPU (bench/README.md "CI time"). The built server still loads it at start
    // (esbuild hoists a bundled module's package imports).
    const store = config.s3 ? (await import('./s3')).s3Store(config.s3, root) : localStore(root);
    await store.check();
    app.addHook('onClose', async () => store.close());

    api.post(
      FILE_PATHS.upload,
      {
        perm: 'session',
        scope: { none: 'a new file is its uploader’s until a document it is attached to is saved' },
        envelope: false,
        summary: 'upload one file (multipart, field "file")',
      },
      async ({ req, actor }) => {
        if (!req.isMultipart()) throw badInput('请以multipart/form-data方式上传文件');
        // The limit is a setting changed without a restart (docs/operations.md).
        const limitBytes = config.uploadLimitBytes;
        const part = await req.file({ limits: { fileSize: limitBytes } });
        if (!part) throw badInput('请选择要上传的文件');
        return storeUpload(db, store, { stream: part.file, fileName: part.filename, limitBytes }, actor);
      },
    );

    api.post(
      FILE_PATHS.downloadToken,
      {
        perm: 'session',
        scope: { none: 'the file follows its document: checked by fileVisible' },
        body: downloadTokenSchema,
        summary: 'single-use download token (1 minute)',
      },
      async ({ body, actor, user }) => issueDownloadToken(db, body.fileToken, actor, user),
    );

    api.post(
      FILE_PATHS.list,
      {
        perm: 'session',
        scope: { none: 'the files follow their document: checked by listDocumentFiles' },
        body: fileListSchema,
        summary: "a document's files",
      },
      async ({ body, user }) => listDocumentFiles(db, body.docType, body.docCode, user),
    );

    const serve = (mode: 'download' | 'origin' | 'preview') =>
      api.post(
        mode === 'download'
          ? FILE_PATHS.download
          : mode === 'origin'
            ? FILE_PATHS.originDownload
            : FILE_PATHS.preview,
        {
          perm: 'public',
          scope: { none: 'the file follows its document: checked by authorize' },
          get: true,
          envelope: false,
          raw: true,
          query: fileGetQuery,
        },
        async ({ query, req, reply }) => {
          const file = await authorize(db, req, await findFile(db, query.fileToken), query.downloadToken);
          if (mode === 'preview' && !PREVIEWABLE.has(file.mime)) throw badInput(PREVIEW_UNSUPPORTED_MSG);
          const name =
            mode !== 'preview' && query.originFileName
              ? sanitizeFileName(query.originFileName, {
                  mime: file.mime,
                  exts: [file.originalName.split('.').pop() ?? 'bin'],
                })
              : file.originalName;
          const range = parseRange(req.headers.range, file.size);
          reply.header('accept-ranges', 'bytes').header('cache-control', 'private, no-store');
          if (range === 'unsatisfiable')
            return reply.code(416).header('content-range', `bytes */${file.size}`).send();
          const stream = await store.get(file.storageKey, range);
          if (range)
            reply
              .code(206)
              .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
              .header('content-length', String(range.end - range.start + 1));
          else reply.code(200).header('content-length', String(file.size));
          reply
            .header('content-type', file.mime)
            .header(
              'content-disposition',
              contentDisposition(mode === 'preview' ? 'inline' : 'attachment', name),
            );
          if (mode === 'preview') {
            // The browser's PDF viewer and images only; no script runs in a previewed file.
            reply.header(
              'content-security-policy',
              "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; object-src 'self'; frame-ancestors 'self'",
            );
          }
          return reply.send(stream);
        },
      );
    api.post(
      IMPORT_TEMPLATE_PATH,
      {
        perm: 'session',
        scope: { none: 'a header row, the same for everyone; no stored data' },
        body: importTemplateSchema,
        raw: true,
        summary: "an xlsx import's 下载模板 (its header row)",
      },
      async ({ body, reply }) => {
        const template = IMPORT_TEMPLATES[body.kind];
        const buf = await templateXlsx(template.headers);
        return reply
          .code(200)
          .header('content-type', XLSX_MIME)
          .header('content-disposition', contentDisposition('attachment', template.fileName))
          .header('cache-control', 'no-store')
          .send(buf);
      },
    );

    serve('download');
    serve('origin');
    serve('preview');
  },
};
