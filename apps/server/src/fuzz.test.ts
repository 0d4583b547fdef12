import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableChecksums } from './platform/testing/checksum';
import { createTestPortal, type TestClient, type TestPortal } from './platform/testing/harness';

/**
 * Random and adversarial bodies to every route (issue 15). The answer is never a 5xx, and a
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
  t = await createTestPortal();
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
    for (const [i, r] of targets.entries()) {
      const before = await tableChecksums(t.database.db);
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
      if (!anyOk) expect(await tableChecksums(t.database.db), r.path).toEqual(before);
    }
  });
});
