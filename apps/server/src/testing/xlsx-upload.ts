import ExcelJS from 'exceljs';
import type { TestClient } from './harness';

type Cells = (string | number | Date)[][];

/** Uploads a one-sheet xlsx of `rows` (row 1 the header) as multipart "file", with extra fields. */
export function uploadXlsx(
  client: TestClient,
  path: string,
  rows: Cells,
  fields: Record<string, string> = {},
): Promise<{ status: number; msg: string; data: unknown }> {
  return uploadWorkbook(client, path, [{ name: '导入', rows }], fields);
}

/** Uploads an xlsx of several named sheets (each's row 1 its header), as uploadXlsx does. */
export async function uploadWorkbook(
  client: TestClient,
  path: string,
  sheets: readonly { name: string; rows: Cells }[],
  fields: Record<string, string> = {},
): Promise<{ status: number; msg: string; data: unknown }> {
  const wb = new ExcelJS.Workbook();
  for (const s of sheets) {
    const ws = wb.addWorksheet(s.name);
    for (const r of s.rows) ws.addRow(r);
  }
  const buf = Buffer.from(await wb.xlsx.writeBuffer());
  const boundary = '----portal' + Date.now();
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="import.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
    ),
    buf,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  const res = await client.portal.app.inject({
    method: 'POST',
    url: path,
    headers: {
      authorization: `Bearer ${client.token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat(parts),
  });
  return res.json() as { status: number; msg: string; data: unknown };
}

/** Uploads a tiny PDF named `name` through the file store; answers its file token. */
export async function uploadPdf(client: TestClient, name: string): Promise<string> {
  const res = await client.portal.app.inject({
    method: 'POST',
    url: '/api/admin/portal/third/file/store',
    headers: {
      authorization: `Bearer ${client.token!}`,
      'content-type': 'multipart/form-data; boundary=X',
    },
    payload: `--X\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n%%EOF\n\r\n--X--\r\n`,
  });
  return (res.json() as { data: { fileToken: string } }).data.fileToken;
}
