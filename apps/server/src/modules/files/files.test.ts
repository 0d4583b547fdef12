import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCOME_PATHS } from '@portal/contract/accounts';
import { COMPANY_PATHS, type CompanyView } from '@portal/contract/company';
import { CREDIT_PATHS } from '@portal/contract/credit';
import { FILE_PATHS, type DownloadTokenResult, type FileInfo } from '@portal/contract/files';
import { usccCheckChar } from '@portal/contract/uscc';
import { auditLog } from '../../platform/db/audit';
import { depts } from '../../platform/auth/schema';
import {
  createDept,
  createTestPortal,
  createUserWithCodes,
  type TestClient,
  type TestPortal,
} from '../../testing/harness';
import { files } from './schema';
import { sanitizeFileName } from './sniff';

let t: TestPortal;
let admin: TestClient;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'portal-files-'));
  t = await createTestPortal({ DATA_DIR: dataDir, UPLOAD_LIMIT_MB: '1' });
  admin = await t.login();
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(40, 1),
]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);

function multipart(name: string, content: Buffer, field = 'file') {
  const boundary = '----portalTestBoundary7MA4YWxkTrZu0gW';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, content, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function upload(name: string, content: Buffer, token: string | null | undefined = admin.token) {
  const { payload, contentType } = multipart(name, content);
  const res = await t.portal.app.inject({
    method: 'POST',
    url: `/api${FILE_PATHS.upload}`,
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload,
  });
  return { status: res.statusCode, body: res.json() as { status: number; msg: string; data: FileInfo } };
}

function get(path: string, query: Record<string, string>, token?: string) {
  return t.portal.app.inject({
    method: 'GET',
    url: `/api${path}?${new URLSearchParams(query).toString()}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

const fileCount = async () =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(files))[0]!.n;

describe('upload', () => {
  it('stores a PDF with its uploader, size and sha256, under DATA_DIR/files', async () => {
    const r = await upload('保理合同.pdf', PDF);
    expect(r.status).toBe(200);
    const f = r.body.data;
    expect(f).toMatchObject({
      originFileName: '保理合同.pdf',
      mime: 'application/pdf',
      size: PDF.length,
      uploaderName: 'admin',
      docType: null,
    });
    expect(f.sha256).toBe(createHash('sha256').update(PDF).digest('hex'));
    expect(f.fileToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const [row] = await t.database.db.select().from(files).where(eq(files.fileToken, f.fileToken));
    expect(existsSync(join(dataDir, 'files', row!.storageKey))).toBe(true);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.entityCode, f.fileToken));
    expect(audits.map((a) => a.action)).toEqual(['upload']);
  });

  it('sniffs the content, not the name: a PNG named .pdf is a PNG; an executable named .pdf is refused', async () => {
    const png = await upload('扫描件.pdf', PNG);
    expect(png.body.data).toMatchObject({ mime: 'image/png', originFileName: '扫描件.pdf.png' });
    const before = await fileCount();
    for (const [name, content] of [
      ['invoice.pdf', EXE],
      ['page.html', Buffer.from('<html><script>alert(1)</script></html>')],
      ['data.txt', Buffer.concat([Buffer.from('abc'), Buffer.from([0, 1, 2, 3])])],
      ['bad.csv', Buffer.from([0xc3, 0x28, 0x41])],
      ['archive.xlsx', Buffer.from('PK\u0003\u0004not really a zip')],
    ] as const) {
      const r = await upload(name, Buffer.from(content));
      expect([r.status, r.body.msg], name).toEqual([400, expect.stringContaining('不支持的文件类型')]);
    }
    expect(await fileCount()).toBe(before);
    expect(readdirSync(join(dataDir, 'files', '.tmp'))).toEqual([]);
  });

  it('refuses a file name holding an invisible character, naming the file name', async () => {
    const before = await fileCount();
    // Line separator, a tag character, a Hangul filler and a blank Braille pattern (SECURITY.md "Input").
    for (const ch of ['\u2028', '\u{E0041}', '\u3164', '\u2800']) {
      const r = await upload(`合同${ch}.pdf`, PDF);
      expect([r.status, r.body.msg], JSON.stringify(ch)).toEqual([
        400,
        '文件名不能包含控制字符、换行或不可见字符',
      ]);
    }
    expect(await fileCount()).toBe(before);
  });

  it('accepts xlsx (a zip with a workbook) and UTF-8 csv', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('应收账款').addRow(['发票号', '金额']);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    const x = await upload('应收账款清单.xlsx', xlsx);
    expect(x.body.data.mime).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const c = await upload('来款.csv', Buffer.from('\ufeff付款方,金额\n华东建工,100.00\n'));
    expect(c.body.data.mime).toBe('text/csv');
  });

  it('sanitises names', () => {
    const pdf = { mime: 'application/pdf', exts: ['pdf'] };
    expect(sanitizeFileName('../../etc/passwd', pdf)).toBe('passwd.pdf');
    expect(sanitizeFileName('C:\\fakepath\\合同<1>.PDF', pdf)).toBe('合同1.PDF'.replace('.PDF', '.pdf'));
    expect(sanitizeFileName('\u0000\u0007', pdf)).toBe('file.pdf');
    expect(sanitizeFileName(`${'长'.repeat(300)}.pdf`, pdf)).toHaveLength(194);
  });

  it('refuses an import over the limit naming the limit, as the file store does', async () => {
    const big = Buffer.alloc(1024 * 1024 + 10, 0x20);
    for (const path of [INCOME_PATHS.resolveIncomeExcel, CREDIT_PATHS.importReceivables]) {
      const res = await admin.portal.app.inject({
        method: 'POST',
        url: `/api${path}`,
        headers: {
          authorization: `Bearer ${admin.token!}`,
          'content-type': 'multipart/form-data; boundary=X',
        },
        payload: Buffer.concat([
          Buffer.from(
            '--X\r\nContent-Disposition: form-data; name="file"; filename="导入.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
          ),
          big,
          Buffer.from('\r\n--X--\r\n'),
        ]),
      });
      const body = res.json() as { status: number; msg: string };
      expect([body.status, body.msg], path).toEqual([413, '上传文件超过大小限制（最大1MB）']);
    }
  });

  it('refuses too large (413), no session (403) and a body that is not multipart (400)', async () => {
    const before = await fileCount();
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1024 * 1024 + 10, 0x20)]);
    const r = await upload('big.pdf', big);
    expect([r.status, r.body.msg]).toEqual([413, '上传文件超过大小限制（最大1MB）']);
    const anon = await upload('a.pdf', PDF, null);
    expect(anon.status).toBe(403);
    const json = await admin.call(`/api${FILE_PATHS.upload}`, { file: 'x' }, { plain: true });
    expect(json.httpStatus).toBe(400);
    expect(await fileCount()).toBe(before);
  });
});

describe('download and preview', () => {
  let pdf: FileInfo;
  let png: FileInfo;
  let xlsx: FileInfo;
  beforeAll(async () => {
    pdf = (await upload('授信审批表.pdf', PDF)).body.data;
    png = (await upload('营业执照.png', PNG)).body.data;
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('a');
    xlsx = (await upload('明细.xlsx', Buffer.from(await wb.xlsx.writeBuffer()))).body.data;
  });

  it('is refused without a session (403), also for unknown tokens', async () => {
    for (const path of [FILE_PATHS.download, FILE_PATHS.originDownload, FILE_PATHS.preview]) {
      const res = await get(path, { fileToken: pdf.fileToken });
      expect(res.statusCode, path).toBe(403);
      expect(res.json()).toMatchObject({ status: 403, ok: false });
    }
    expect((await get(FILE_PATHS.download, { fileToken: 'x'.repeat(32) })).statusCode).toBe(403);
    expect((await get(FILE_PATHS.download, { fileToken: 'x'.repeat(32) }, admin.token)).statusCode).toBe(404);
    expect((await get(FILE_PATHS.download, { fileToken: pdf.fileToken }, 'y'.repeat(43))).statusCode).toBe(
      403,
    );
  });

  it('serves one byte range (206 with Content-Range), and 416 past the end', async () => {
    const ranged = (range: string) =>
      t.portal.app.inject({
        method: 'GET',
        url: `/api${FILE_PATHS.download}?fileToken=${pdf.fileToken}`,
        headers: { authorization: `Bearer ${admin.token}`, range },
      });
    const part = await ranged('bytes=5-14');
    expect([part.statusCode, part.headers['content-range']]).toEqual([206, `bytes 5-14/${PDF.length}`]);
    expect(part.rawPayload.equals(PDF.subarray(5, 15))).toBe(true);
    const open = await ranged('bytes=100-');
    expect(open.rawPayload.equals(PDF.subarray(100))).toBe(true);
    const beyond = await ranged(`bytes=${PDF.length}-`);
    expect([beyond.statusCode, beyond.headers['content-range']]).toEqual([416, `bytes */${PDF.length}`]);
    // Several ranges are not served piecewise: the whole file comes back.
    const several = await ranged('bytes=0-1,4-5');
    expect([several.statusCode, several.rawPayload.length]).toEqual([200, PDF.length]);
  });

  it('downloads the exact bytes with the original name (RFC 5987) and the session', async () => {
    const res = await get(FILE_PATHS.download, { fileToken: pdf.fileToken }, admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="_____.pdf"; filename*=UTF-8''${encodeURIComponent('授信审批表.pdf')}`,
    );
    const origin = await get(
      FILE_PATHS.originDownload,
      { fileToken: pdf.fileToken, originFileName: '另存为.pdf' },
      admin.token,
    );
    expect(origin.headers['content-disposition']).toContain(encodeURIComponent('另存为.pdf'));
  });

  it('previews pdf and images inline; other types answer 该附件格式不支持预览！', async () => {
    const p1 = await get(FILE_PATHS.preview, { fileToken: pdf.fileToken }, admin.token);
    expect([p1.statusCode, p1.headers['content-type']]).toEqual([200, 'application/pdf']);
    expect(String(p1.headers['content-disposition'])).toMatch(/^inline; /);
    const p2 = await get(FILE_PATHS.preview, { fileToken: png.fileToken }, admin.token);
    expect(p2.headers['content-type']).toBe('image/png');
    const p3 = await get(FILE_PATHS.preview, { fileToken: xlsx.fileToken }, admin.token);
    expect([p3.statusCode, p3.json().msg]).toEqual([400, '该附件格式不支持预览！']);
  });

  it('a download token works once, for its own file, without the session header', async () => {
    const tok = await admin.ok<DownloadTokenResult>(`/api${FILE_PATHS.downloadToken}`, {
      fileToken: pdf.fileToken,
    });
    expect(Date.parse(tok.expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
    const wrong = await get(FILE_PATHS.preview, {
      fileToken: png.fileToken,
      downloadToken: tok.downloadToken,
    });
    expect(wrong.statusCode).toBe(403);
    const first = await get(FILE_PATHS.preview, {
      fileToken: pdf.fileToken,
      downloadToken: tok.downloadToken,
    });
    expect(first.statusCode).toBe(200);
    expect(first.rawPayload.equals(PDF)).toBe(true);
    const again = await get(FILE_PATHS.preview, {
      fileToken: pdf.fileToken,
      downloadToken: tok.downloadToken,
    });
    expect(again.statusCode).toBe(403);
    await t.database.db.execute(
      sql`update file_download_tokens set expires_at = now() - interval '1 second'`,
    );
    const tok2 = await admin.ok<DownloadTokenResult>(`/api${FILE_PATHS.downloadToken}`, {
      fileToken: pdf.fileToken,
    });
    await t.database.db.execute(
      sql`update file_download_tokens set expires_at = now() - interval '1 second'`,
    );
    expect(
      (await get(FILE_PATHS.download, { fileToken: pdf.fileToken, downloadToken: tok2.downloadToken }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.client().call(`/api${FILE_PATHS.downloadToken}`, { fileToken: pdf.fileToken })).httpStatus,
    ).toBe(403);
  });
});

describe('attachments of a document', () => {
  it('attaches files to a customer, lists them, refuses reuse by another document and removes on update', async () => {
    const a = (await upload('章程.pdf', PDF)).body.data;
    const b = (await upload('执照.png', PNG)).body.data;
    const first17 = '91310115MA1K4Q2B3';
    const body = {
      compName: '附件测试有限公司',
      usccCode: first17 + usccCheckChar(first17),
      compType: 'private',
      roles: ['supplier'],
      legalPerson: '赵六',
      regCapital: '1000000.00',
      provinceCode: '310000',
      fileTokens: [a.fileToken, b.fileToken],
    };
    const { compCode } = await admin.ok<{ compCode: string }>(`/api${COMPANY_PATHS.add}`, body);
    const v = await admin.ok<CompanyView>(`/api${COMPANY_PATHS.view}`, undefined, { query: { compCode } });
    expect(v.files.map((f) => f.originFileName)).toEqual(['章程.pdf', '执照.png']);
    const listed = await admin.ok<FileInfo[]>(`/api${FILE_PATHS.list}`, {
      docType: 'company',
      docCode: compCode,
    });
    expect(listed.map((f) => f.fileToken)).toEqual([a.fileToken, b.fileToken]);

    const second17 = '91310115MA1K4Q2B4';
    const reuse = await admin.call(`/api${COMPANY_PATHS.add}`, {
      ...body,
      compName: '另一家',
      usccCode: second17 + usccCheckChar(second17),
      fileTokens: [a.fileToken],
    });
    expect([reuse.httpStatus, reuse.msg]).toEqual([400, '附件「章程.pdf」已属于其他单据']);

    await admin.ok(`/api${COMPANY_PATHS.update}`, {
      ...body,
      compCode,
      version: v.version,
      fileTokens: [b.fileToken],
    });
    const after = await admin.ok<FileInfo[]>(`/api${FILE_PATHS.list}`, {
      docType: 'company',
      docCode: compCode,
    });
    expect(after.map((f) => f.fileToken)).toEqual([b.fileToken]);
  });
});

describe('attachments follow their document', () => {
  const PASSWORD = 'Files@12345678';
  const CUSTOMER_SCREEN = ['ft-company'];
  let compCode: string;
  let attached: FileInfo;
  let loose: FileInfo;
  let nobody: TestClient;
  let otherOrg: TestClient;
  let sameOrg: TestClient;

  beforeAll(async () => {
    const { db } = t.database;
    attached = (await upload('合同扫描件.pdf', PDF)).body.data;
    loose = (await upload('未归档.pdf', PDF)).body.data;
    const first17 = '91310115MA1K4Q2C5';
    ({ compCode } = await admin.ok<{ compCode: string }>(`/api${COMPANY_PATHS.add}`, {
      compName: '范围测试有限公司',
      usccCode: first17 + usccCheckChar(first17),
      compType: 'private',
      roles: ['supplier'],
      legalPerson: '钱七',
      regCapital: '1000000.00',
      provinceCode: '310000',
      fileTokens: [attached.fileToken],
    }));
    // The customer belongs to the administrator's organisation (总部, the root).
    const [root] = await t.database.db.select({ id: depts.id }).from(depts).where(isNull(depts.parentId));
    const yi = await createDept(db, '乙部');
    await createUserWithCodes(db, 'files-nobody', PASSWORD, []);
    await createUserWithCodes(db, 'files-other', PASSWORD, CUSTOMER_SCREEN, {
      deptId: yi.id,
      dataScope: 'dept',
    });
    await createUserWithCodes(db, 'files-same', PASSWORD, CUSTOMER_SCREEN, {
      deptId: root!.id,
      dataScope: 'dept',
    });
    nobody = await t.login('files-nobody', PASSWORD);
    otherOrg = await t.login('files-other', PASSWORD);
    sameOrg = await t.login('files-same', PASSWORD);
  });

  const list = (c: TestClient) => c.call(`/api${FILE_PATHS.list}`, { docType: 'company', docCode: compCode });
  const token = (c: TestClient, f: FileInfo) =>
    c.call(`/api${FILE_PATHS.downloadToken}`, { fileToken: f.fileToken });

  it('whoever may view the customer lists and downloads its files', async () => {
    const listed = await list(sameOrg);
    expect([listed.httpStatus, (listed.data as FileInfo[]).map((f) => f.fileToken)]).toEqual([
      200,
      [attached.fileToken],
    ]);
    const res = await get(FILE_PATHS.download, { fileToken: attached.fileToken }, sameOrg.token);
    expect([res.statusCode, res.rawPayload.equals(PDF)]).toEqual([200, true]);
  });

  it('a user without a role, or of another organisation, gets 404 and no bytes', async () => {
    for (const c of [nobody, otherOrg]) {
      expect((await list(c)).httpStatus).toBe(404);
      expect((await token(c, attached)).httpStatus).toBe(404);
      for (const path of [FILE_PATHS.download, FILE_PATHS.originDownload, FILE_PATHS.preview]) {
        const res = await get(path, { fileToken: attached.fileToken }, c.token);
        expect([path, res.statusCode, res.rawPayload.includes(PDF.subarray(0, 8))]).toEqual([
          path,
          404,
          false,
        ]);
      }
    }
  });

  it('a file not yet attached is its uploader’s alone', async () => {
    expect((await get(FILE_PATHS.download, { fileToken: loose.fileToken }, sameOrg.token)).statusCode).toBe(
      404,
    );
    expect((await token(sameOrg, loose)).httpStatus).toBe(404);
    expect((await get(FILE_PATHS.download, { fileToken: loose.fileToken }, admin.token)).statusCode).toBe(
      200,
    );
  });

  it('a download token is bound to the user who asked for it', async () => {
    const tok = await admin.ok<DownloadTokenResult>(`/api${FILE_PATHS.downloadToken}`, {
      fileToken: attached.fileToken,
    });
    const query = { fileToken: attached.fileToken, downloadToken: tok.downloadToken };
    // A second user presenting it with their own session, even one who may see the file, gets nothing.
    for (const c of [otherOrg, sameOrg]) {
      const res = await get(FILE_PATHS.download, query, c.token);
      expect([res.statusCode, res.rawPayload.includes(PDF.subarray(0, 8))]).toEqual([404, false]);
    }
    // The token was not spent by them: its own user still downloads with it.
    const mine = await get(FILE_PATHS.download, query, admin.token);
    expect([mine.statusCode, mine.rawPayload.equals(PDF)]).toEqual([200, true]);
  });
});
