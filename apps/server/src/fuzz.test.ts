import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_PATHS } from '@portal/contract/auth';
import { optionalText } from '@portal/contract/fields';
import { FILE_PATHS } from '@portal/contract/files';
import { PERMISSION_PATHS } from '@portal/contract/permission';
import { tableChecksums } from './testing/checksum';
import { createTestPortal, type TestClient, type TestPortal } from './testing/harness';

/**
 * Random and adversarial bodies to every route. The answer is never a 5xx, and a
 * refused request writes nothing. FUZZ_RUNS sets the cases per route.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

const nasty = fc.oneof(
  fc.constantFrom(
    "'; drop table users; --",
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '2024-02-30',
    '9999-99-99',
    '-0.001',
    '12345678901234567890',
    '-99999999999999999999.99',
    '1e308',
    'NaN',
    '\u0000',
    '𠀋𠀋𠀋😀',
    '%s%n%x',
    '../../etc/passwd',
    ' ',
  ),
  fc.string({ maxLength: 50 }),
  fc.string({ minLength: 5000, maxLength: 20000 }),
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map((b) => b.toString()),
  fc.boolean(),
  fc.constant(null),
);

const body = fc.oneof(
  fc.dictionary(
    fc.oneof(
      fc.constantFrom(
        'bizCode',
        'amount',
        'pageNum',
        'pageSize',
        'name',
        'userName',
        'version',
        'date',
        'menuCode',
        '__proto__',
        'constructor',
      ),
      fc.string({ maxLength: 12 }),
    ),
    fc.oneof(
      nasty,
      fc.array(nasty, { maxLength: 5 }),
      fc.dictionary(fc.string({ maxLength: 5 }), nasty, { maxKeys: 3 }),
    ),
    { maxKeys: 8 },
  ),
  fc.anything({ maxDepth: 3 }),
);

function deep(n: number): unknown {
  let v: unknown = { leaf: 1 };
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
}

let t: TestPortal;
let admin: TestClient;
let cases = 0;
beforeAll(async () => {
  // One admin sends thousands of calls here: the per-user limit (tested in envelope.test.ts) would
  // answer 429 to whichever test ran within the same minute as the route fuzz.
  t = await createTestPortal({ RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_IP_PER_MINUTE: '0' });
  admin = await t.login();
});
afterAll(() => {
  console.info(`fuzz: ${cases} requests over ${t.portal.routes.length} routes, no 5xx`);
  return t.close();
});

describe('fuzzing every route', () => {
  // Grows with every route: give it room on a loaded 2-core machine.
  it('never answers 5xx and writes nothing when it refuses', { timeout: 600_000 }, async () => {
    // Logout would end the session under test; it is covered by the auth tests.
    const targets = t.portal.routes.filter(
      (x) => x.method === 'POST' && x.perm !== 'public' && !x.path.endsWith('/user/logout'),
    );
    // A refused route's tables after it are the next route's before: nothing is called between
    // the two, so reading them again only cost CPU (bench/README.md "Tenth pass").
    let before: Record<string, string> | undefined;
    for (const [i, r] of targets.entries()) {
      before ??= await tableChecksums(t.database.db);
      let anyOk = false;
      await fc.assert(
        fc.asyncProperty(body, fc.option(fc.string({ maxLength: 30 }), { nil: undefined }), async (b, q) => {
          const res = await admin.call(r.path, b, q === undefined ? {} : { query: { bizCode: q, pid: q } });
          cases++;
          if (res.httpStatus === 200) anyOk = true;
          // 403 would mean the session died and the case tested nothing.
          if (res.httpStatus >= 500 || res.httpStatus === 403)
            throw new Error(`${r.path}: ${res.httpStatus} ${res.msg}`);
          return true;
        }),
        { numRuns: RUNS },
      );
      // Nesting and size limits act before the route: a few routes prove them.
      for (const special of i < 3 ? [deep(1000), { payload: 'x'.repeat(10 * 1024 * 1024) }] : [deep(1000)]) {
        const res = await admin.call(r.path, special);
        cases++;
        expect(res.httpStatus, r.path).toBeLessThan(500);
        if (res.httpStatus === 200) anyOk = true;
      }
      if (anyOk) {
        before = undefined;
      } else {
        const after = await tableChecksums(t.database.db);
        expect(after, r.path).toEqual(before);
        before = after;
      }
    }
  });
});

/** A multipart body as a browser sends it: one field and one file. */
function multipartBody(boundary: string, fileName: string, content: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nx\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** Malformed multipart: no boundary, a wrong one, truncated headers or body, garbage. */
const badMultipart = fc.oneof(
  fc.record({
    ct: fc.constant('multipart/form-data'),
    body: fc.uint8Array({ maxLength: 300 }).map(Buffer.from),
  }),
  fc.record({
    ct: fc.constant('multipart/form-data; boundary=XyZ'),
    body: fc.constant(multipartBody('AbC', 'a.pdf', PDF)),
  }),
  fc.integer({ min: 1, max: 180 }).map((cut) => ({
    ct: 'multipart/form-data; boundary=XyZ',
    body: multipartBody('XyZ', 'a.pdf', PDF).subarray(0, cut),
  })),
  fc.record({
    ct: fc.constantFrom(
      'multipart/form-data; boundary=XyZ',
      'multipart/form-data; boundary=',
      'multipart/mixed',
    ),
    body: fc.oneof(
      fc.string().map((x) => Buffer.from(x)),
      fc.uint8Array({ maxLength: 500 }).map(Buffer.from),
    ),
  }),
);

describe('fuzzing multipart uploads', () => {
  it(
    'answers 400 in Chinese to a malformed multipart body, never 5xx, and writes nothing',
    { timeout: 300_000 },
    async () => {
      const uploads = t.portal.routes.filter(
        (r) => r.method === 'POST' && !r.envelope && r.perm !== 'public',
      );
      expect(uploads.map((r) => r.path)).toContain(`/api${FILE_PATHS.upload}`);
      const before = await tableChecksums(t.database.db);
      for (const r of uploads) {
        await fc.assert(
          fc.asyncProperty(badMultipart, async ({ ct, body }) => {
            const res = await t.portal.app.inject({
              method: 'POST',
              url: r.path,
              headers: { authorization: `Bearer ${admin.token}`, 'content-type': ct },
              payload: body,
            });
            cases++;
            const answer = res.json<{ status: number; msg: string }>();
            if (res.statusCode !== 400 || answer.status !== 400 || !/[\u4e00-\u9fff]/.test(answer.msg))
              throw new Error(`${r.path} ${ct}: ${res.statusCode} ${res.body}`);
            return true;
          }),
          { numRuns: RUNS * 2 },
        );
      }
      expect(await tableChecksums(t.database.db)).toEqual(before);
    },
  );
});

/** Random header values on every kind of route: never a 5xx. */
const headerValue = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'Bearer ',
    'Bearer x',
    '\t',
    'null',
    '-1',
    '99999999999999999999',
    'a'.repeat(8000),
  ),
  fc.string({ maxLength: 100 }).map((x) => x.replace(/[^\t\x20-\x7e]/g, '')),
);
const headerName = fc.constantFrom(
  'authorization',
  'content-type',
  'aes',
  'x-key-id',
  'x-timestamp',
  'x-nonce',
  'signature',
  'x-forwarded-for',
  'x-forwarded-proto',
  'accept-encoding',
  'range',
  'if-none-match',
  'content-encoding',
);

describe('fuzzing headers', () => {
  it('never answers 5xx to hostile header values', { timeout: 300_000 }, async () => {
    const sample = t.portal.routes.filter((_, i) => i % 7 === 0);
    for (const r of sample) {
      await fc.assert(
        fc.asyncProperty(fc.dictionary(headerName, headerValue, { minKeys: 1, maxKeys: 4 }), async (h) => {
          const res = await admin.call(r.path, {}, { method: r.method, headers: h });
          cases++;
          if (res.httpStatus >= 500) throw new Error(`${r.path} ${JSON.stringify(h)}: ${res.httpStatus}`);
          return true;
        }),
        { numRuns: RUNS },
      );
    }
  });
});

describe('hostile characters in names and identifiers', () => {
  const orgAdd = `/api${PERMISSION_PATHS.orgAdd}`;

  it.each([
    ['right-to-left override', '财务\u202E部'],
    ['zero-width space', '财务\u200B部'],
    ['zero-width joiner', '财务\u200D部'],
    ['byte order mark inside', '财务\uFEFF部'],
    ['bidi isolate', '财务\u2066部'],
    ['C1 control', '财务\u0085部'],
    ['escape', '财务\u001B[2J部'],
    ['line break', '财务\n部'],
  ])('refuses a %s in a name, naming the field', async (_, name) => {
    const before = await tableChecksums(t.database.db);
    const res = await admin.call(orgAdd, { name, state: 'enabled' });
    expect([res.httpStatus, res.msg]).toEqual([400, '组织名称不能包含控制字符、换行或不可见字符']);
    expect(await tableChecksums(t.database.db)).toEqual(before);
  });

  it.each([
    ['NUL', '张\u0000三'],
    ['lone high surrogate', '张\uD800三'],
    ['lone low surrogate', '张\uDC00'],
  ])('names the field that holds a %s instead of answering 数据超出允许范围', async (_, bad) => {
    const org = await admin.call(orgAdd, { name: '测试部', leader: bad, state: 'enabled' });
    expect([org.httpStatus, org.msg]).toEqual([400, '负责人不能包含控制字符、换行或不可见字符']);
    const login = await t
      .client()
      .call(`/api${AUTH_PATHS.login}`, { userName: `ad${bad}min`, passWord: 'x', userType: '2' });
    expect([login.httpStatus, login.msg]).toEqual([400, '用户名不能包含控制字符、换行或不可见字符']);
  });

  it('reads a full-width code as the same code (NFKC)', async () => {
    const res = await admin.call(`/api${PERMISSION_PATHS.orgGet}`, undefined, {
      query: { bizCode: '９９９９９９９９９９９９' },
    });
    expect(res.httpStatus).toBe(404);
  });

  it('keeps line breaks in multi-line remarks and refuses the rest there too', () => {
    const remark = optionalText('备注', 500, { multiline: true });
    expect(remark.parse('第一行\r\n第二行\t完')).toBe('第一行\r\n第二行\t完');
    expect(remark.safeParse('第一行\u202E').error?.issues[0]?.message).toBe(
      '备注不能包含控制字符、换行或不可见字符',
    );
  });

  it('refuses an uploaded file name with a direction override, naming the file name', async () => {
    const before = await tableChecksums(t.database.db);
    const boundary = 'b0undary';
    const res = await t.portal.app.inject({
      method: 'POST',
      url: `/api${FILE_PATHS.upload}`,
      headers: {
        authorization: `Bearer ${admin.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: multipartBody(boundary, 'invoice\u202Efdp.exe.pdf', PDF),
    });
    expect([res.statusCode, res.json<{ msg: string }>().msg]).toEqual([
      400,
      '文件名不能包含控制字符、换行或不可见字符',
    ]);
    expect(await tableChecksums(t.database.db)).toEqual(before);
  });
});

/**
 * A raw HTTP/1.1 exchange over a real socket (app.inject bypasses Node's parser and socket, where
 * 413 and 431 happen). Sends `head`, then `bodyBytes` of body in 64 KiB writes (chunked when
 * `chunked`), and answers what came back and any socket error seen while sending.
 */
async function rawExchange(
  port: number,
  head: string,
  bodyBytes: number,
  chunked = false,
): Promise<{ answer: string; sendError: string | undefined }> {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  let sendError: string | undefined;
  socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
  socket.on('error', (e: NodeJS.ErrnoException) => (sendError ??= e.code ?? e.message));
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  await new Promise<void>((r) => socket.once('connect', () => r()));
  socket.write(head);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  for (let sent = 0; sent < bodyBytes && !socket.destroyed; sent += chunk.length) {
    const data = chunked
      ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
      : chunk;
    if (!socket.write(data)) {
      await new Promise<void>((r) => {
        socket.once('drain', () => r());
        socket.once('close', () => r());
      });
    }
  }
  if (chunked && !socket.destroyed) socket.write('0\r\n\r\n');
  // The answer is complete when the server closes (413 and 431 close the connection).
  await closed;
  return { answer, sendError };
}

function envelopeOf(answer: string): {
  httpStatus: number;
  body: { status: number; ok: boolean; msg: string };
} {
  const httpStatus = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
  const raw = Buffer.from(answer.slice(answer.indexOf('\r\n\r\n') + 4), 'latin1').toString('utf8');
  return { httpStatus, body: JSON.parse(raw) as { status: number; ok: boolean; msg: string } };
}

describe('limits over a real socket', () => {
  let port = 0;
  beforeAll(async () => {
    await t.portal.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.portal.app.server.address() as { port: number }).port;
  });

  it.each([
    ['with a Content-Length', false],
    ['chunked', true],
  ])('delivers 413 to a client still sending a 10 MB body (%s)', { timeout: 120_000 }, async (_, chunked) => {
    const size = 10 * 1024 * 1024;
    const head =
      `POST /api${AUTH_PATHS.login} HTTP/1.1\r\nHost: portal\r\nContent-Type: application/json\r\n` +
      (chunked ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${size}\r\n\r\n`);
    const { answer, sendError } = await rawExchange(port, head, size, chunked);
    expect(sendError).toBeUndefined();
    const { httpStatus, body } = envelopeOf(answer);
    expect([httpStatus, body]).toEqual([413, { status: 413, ok: false, msg: '上传内容或请求体过大' }]);
  });

  it.each([
    ['a header', `GET /api/docs HTTP/1.1\r\nHost: portal\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`],
    ['the query', `GET /api/docs?q=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: portal\r\n\r\n`],
  ])('answers %s over 16 KB with 431 in the envelope shape', async (_, head) => {
    const { answer } = await rawExchange(port, head, 0);
    const { httpStatus, body } = envelopeOf(answer);
    expect(httpStatus).toBe(431);
    expect(body).toEqual({ status: 431, ok: false, msg: '请求头或网址过长（不能超过16KB）' });
    expect(answer.toLowerCase()).toContain('x-request-id: ');
  });

  it('answers a request Node cannot parse with 400 in the envelope shape', async () => {
    const { answer } = await rawExchange(
      port,
      'GET /api/docs HTTP/1.1\r\nHost: portal\r\nBad Header\r\n\r\n',
      0,
    );
    const { httpStatus, body } = envelopeOf(answer);
    expect([httpStatus, body.status, body.ok]).toEqual([400, 400, false]);
  });
});
