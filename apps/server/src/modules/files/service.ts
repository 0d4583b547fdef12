import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { forbiddenCharsMessage, hasForbiddenChars } from '@portal/contract/fields';
import {
  DOC_TYPE_PATTERN,
  uploadTooLargeMessage,
  type DownloadTokenResult,
  type FileInfo,
} from '@portal/contract/files';
import type { Db, Executor } from '../../platform/db/client';
import type { Actor } from '../../platform/db/audit';
import { runCommand } from '../../platform/db/command';
import { AppError, badInput, notFound } from '../../platform/errors';
import { STATUS } from '@portal/contract/api';
import { documentVisible, kindOfDocType } from '../../platform/auth/row-scope';
import type { ScopeUser } from '../../platform/auth/data-scope';
import { fileDownloadTokens, files } from './schema';
import { sanitizeFileName, sniff } from './sniff';
import { storageKeyFor, type FileStore } from './storage';

type Row = typeof files.$inferSelect;

export function toFileInfo(r: Row): FileInfo {
  return {
    fileToken: r.fileToken,
    originFileName: r.originalName,
    size: r.size,
    mime: r.mime,
    sha256: r.sha256,
    docType: r.docType,
    docCode: r.docCode,
    uploaderName: r.uploadedByName,
    createdAt: r.createdAt,
  };
}

const live = isNull(files.deletedAt);
const HEAD_BYTES = 64;

export const UNSUPPORTED_TYPE_MSG =
  '不支持的文件类型：仅支持PDF、图片（JPG/PNG/GIF）、Excel（xlsx）、Word（docx）、文本（txt/csv）';

/**
 * Stores one uploaded file: streamed to a temporary file while hashing (never whole in memory),
 * refused when larger than the limit (413) or when its bytes are not an allowed type (400),
 * then moved into the store and recorded with its uploader.
 */
export async function storeUpload(
  db: Db,
  store: FileStore,
  input: { stream: Readable & { truncated?: boolean }; fileName: string | undefined; limitBytes: number },
  actor: Actor,
): Promise<FileInfo> {
  const token = randomBytes(24).toString('base64url');
  await mkdir(store.tempDir, { recursive: true });
  const temp = join(store.tempDir, `${token}.part`);
  const hash = createHash('sha256');
  const headChunks: Buffer[] = [];
  let headLen = 0;
  let size = 0;
  const out = createWriteStream(temp);
  let moved = false;
  try {
    for await (const chunk of input.stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
      if (headLen < HEAD_BYTES) {
        headChunks.push(chunk);
        headLen += chunk.length;
      }
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    out.end();
    await finished(out);
    if (input.stream.truncated) throw new AppError(STATUS.tooLarge, uploadTooLargeMessage(input.limitBytes));
    if (size === 0) throw badInput('上传文件不能为空');
    // A bidi override shows `invoice\u202Efdp.exe.pdf` as `invoiceexe.pdf…`: refused, not cleaned
    // (SECURITY.md "Input").
    if (hasForbiddenChars(input.fileName ?? '')) throw badInput(forbiddenCharsMessage('文件名'));
    const kind = await sniff(temp, Buffer.concat(headChunks), size, input.fileName ?? '');
    if (!kind) throw badInput(UNSUPPORTED_TYPE_MSG);
    const name = sanitizeFileName(input.fileName, kind);
    const sha256 = hash.digest('hex');
    const key = storageKeyFor(token, sha256);
    await store.put(key, temp, { size, mime: kind.mime });
    moved = true;
    try {
      return await runCommand(db, actor, { entity: 'file', action: 'upload', code: token }, async (tx, w) => {
        const [row] = await tx
          .insert(files)
          .values({
            fileToken: token,
            storageKey: key,
            originalName: name,
            mime: kind.mime,
            size,
            sha256,
            uploadedBy: actor.userId || null,
            uploadedByName: actor.userName,
          })
          .returning();
        await w.audit({ detail: { name, size, mime: kind.mime, sha256 } });
        return toFileInfo(row!);
      });
    } catch (err) {
      await store.remove(key).catch(() => undefined);
      throw err;
    }
  } finally {
    if (!out.closed) out.destroy();
    if (!moved) await rm(temp, { force: true }).catch(() => undefined);
  }
}

export async function findFile(ex: Executor, fileToken: string): Promise<Row | undefined> {
  const [row] = await ex
    .select()
    .from(files)
    .where(and(eq(files.fileToken, fileToken), live))
    .limit(1);
  return row;
}

/**
 * The original names of files by token, removed ones included (for showing an audit trail, which
 * records tokens; the tokens themselves are never shown).
 */
export async function fileNamesByToken(
  ex: Executor,
  tokens: readonly string[],
): Promise<Map<string, string>> {
  const unique = [...new Set(tokens)];
  if (unique.length === 0) return new Map();
  const rows = await ex
    .select({ token: files.fileToken, name: files.originalName })
    .from(files)
    .where(inArray(files.fileToken, unique));
  return new Map(rows.map((r) => [r.token, r.name]));
}

/** The files attached to one document, oldest first. */
export async function listFiles(ex: Executor, docType: string, docCode: string): Promise<FileInfo[]> {
  const rows = await ex
    .select()
    .from(files)
    .where(and(eq(files.docType, docType), eq(files.docCode, docCode), live))
    .orderBy(asc(files.id));
  return rows.map(toFileInfo);
}

function checkDoc(docType: string, docCode: string) {
  if (!DOC_TYPE_PATTERN.test(docType) || !/^[A-Za-z0-9_-]{1,40}$/.test(docCode))
    throw new Error(`bad document ${docType}/${docCode}`);
}

/**
 * Attaches uploaded files to a document (other modules call this inside their save transaction).
 * A token must name a live file that is not attached to another document; attaching twice to the
 * same document is harmless.
 */
export async function attachFiles(
  ex: Executor,
  opts: { docType: string; docCode: string; fileTokens: readonly string[]; actor: Actor },
): Promise<void> {
  checkDoc(opts.docType, opts.docCode);
  const tokens = [...new Set(opts.fileTokens)];
  if (tokens.length === 0) return;
  const cmd = { entity: opts.docType, action: 'attachFiles', code: opts.docCode };
  await runCommand(ex, opts.actor, cmd, async (tx, w) => {
    const rows = await tx
      .select()
      .from(files)
      .where(and(inArray(files.fileToken, tokens), live))
      .for('update');
    for (const t of tokens) {
      const row = rows.find((r) => r.fileToken === t);
      if (!row) throw badInput('附件不存在或已被删除，请重新上传');
      if (row.docType && (row.docType !== opts.docType || row.docCode !== opts.docCode))
        throw badInput(`附件「${row.originalName}」已属于其他单据`);
    }
    const fresh = rows.filter((r) => !r.docType).map((r) => r.id);
    if (fresh.length === 0) return w.unchanged();
    await tx
      .update(files)
      .set({ docType: opts.docType, docCode: opts.docCode, attachedAt: sql`now()` })
      .where(inArray(files.id, fresh));
    await w.audit({ detail: { fileTokens: rows.filter((r) => !r.docType).map((r) => r.fileToken) } });
  });
}

/**
 * Makes the document's attachments exactly `fileTokens`: new ones are attached, the ones no
 * longer listed are removed (soft delete, the content stays for the audit trail).
 */
export async function setDocumentFiles(
  ex: Executor,
  opts: { docType: string; docCode: string; fileTokens: readonly string[]; actor: Actor },
): Promise<void> {
  checkDoc(opts.docType, opts.docCode);
  await attachFiles(ex, opts);
  const cmd = { entity: opts.docType, action: 'removeFiles', code: opts.docCode };
  await runCommand(ex, opts.actor, cmd, async (tx, w) => {
    const keep = [...new Set(opts.fileTokens)];
    const current = await tx
      .select({ id: files.id, token: files.fileToken })
      .from(files)
      .where(and(eq(files.docType, opts.docType), eq(files.docCode, opts.docCode), live));
    const gone = current.filter((c) => !keep.includes(c.token));
    if (gone.length === 0) return w.unchanged();
    await tx
      .update(files)
      .set({ deletedAt: sql`now()` })
      .where(
        inArray(
          files.id,
          gone.map((g) => g.id),
        ),
      );
    await w.audit({ detail: { fileTokens: gone.map((g) => g.token) } });
  });
}

const DOWNLOAD_TOKEN_TTL_MS = 60_000;
const hashToken = (t: string) => createHash('sha256').update(t).digest('base64url');

export type FileViewer = ScopeUser & { codes: ReadonlySet<string> };

/**
 * Attachments follow their document (SECURITY.md): whoever may view the document may open its files.
 * A file not yet attached (uploaded for a form not saved yet) is its uploader's alone.
 */
export async function fileVisible(ex: Executor, file: Row, user: FileViewer): Promise<boolean> {
  if (!file.docType || !file.docCode) return file.uploadedBy === user.userId;
  const kind = kindOfDocType(file.docType);
  if (!kind) return user.codes.has('admin');
  return documentVisible(ex, kind, file.docCode, user);
}

/** A document's files, for whoever may view the document; otherwise 404 as for a missing one. */
export async function listDocumentFiles(
  ex: Executor,
  docType: string,
  docCode: string,
  user: FileViewer,
): Promise<FileInfo[]> {
  const kind = kindOfDocType(docType);
  if (!kind || !(await documentVisible(ex, kind, docCode, user))) throw notFound('单据');
  return listFiles(ex, docType, docCode);
}

/**
 * docs/protocol.md "Sessions": a single-use token, valid one minute, for a link opened in a new window. It is
 * bound to the user who asked for it (consumeDownloadToken).
 */
export async function issueDownloadToken(
  db: Db,
  fileToken: string,
  actor: Actor,
  user: FileViewer,
): Promise<DownloadTokenResult> {
  const file = await findFile(db, fileToken);
  if (!file || !(await fileVisible(db, file, user))) throw notFound('附件');
  const downloadToken = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + DOWNLOAD_TOKEN_TTL_MS).toISOString();
  await runCommand(db, actor, { entity: 'file', action: 'downloadToken', code: fileToken }, async (tx, w) => {
    await tx
      .delete(fileDownloadTokens)
      .where(sql`${fileDownloadTokens.expiresAt} < now() - interval '1 day'`);
    await tx
      .insert(fileDownloadTokens)
      .values({ tokenHash: hashToken(downloadToken), fileId: file.id, userId: actor.userId, expiresAt });
    await w.audit();
  });
  return { downloadToken, expiresAt };
}

/**
 * The user a download token was issued to while it can still be spent, without spending it: its
 * download counts against that user's limit, not its address's (SECURITY.md "Rate limits").
 */
export async function downloadTokenOwner(db: Db, downloadToken: string): Promise<number | undefined> {
  const [row] = await db
    .select({ userId: fileDownloadTokens.userId })
    .from(fileDownloadTokens)
    .where(
      and(
        eq(fileDownloadTokens.tokenHash, hashToken(downloadToken)),
        isNull(fileDownloadTokens.usedAt),
        sql`${fileDownloadTokens.expiresAt} > now()`,
      ),
    );
  return row?.userId;
}

/**
 * Spends a download token on its file: true once, within its minute, for that file only. When the
 * request also carries a session, only the user the token was issued to may spend it.
 */
export async function consumeDownloadToken(
  db: Db,
  downloadToken: string,
  fileId: number,
  sessionUserId: number | undefined,
): Promise<boolean> {
  const used = await db
    .update(fileDownloadTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(fileDownloadTokens.tokenHash, hashToken(downloadToken)),
        eq(fileDownloadTokens.fileId, fileId),
        sessionUserId === undefined ? undefined : eq(fileDownloadTokens.userId, sessionUserId),
        isNull(fileDownloadTokens.usedAt),
        sql`${fileDownloadTokens.expiresAt} > now()`,
      ),
    )
    .returning({ userId: fileDownloadTokens.userId });
  return used.length === 1;
}
