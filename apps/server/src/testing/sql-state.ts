import { pgCode } from '../platform/http/error-map';

/** The SQLSTATE a statement fails with (undefined when it succeeds): '23514' is a CHECK violation. */
export async function sqlStateOf(statement: Promise<unknown>): Promise<string | undefined> {
  try {
    await statement;
    return undefined;
  } catch (err) {
    return pgCode(err) ?? 'no SQLSTATE';
  }
}

/**
 * The unique index a statement breaks ('none' when it succeeds, the error's text when it fails
 * otherwise), so a test of an index fails when the statement fails for another reason.
 */
export async function uniqueIndexBrokenBy(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
    return 'none';
  } catch (err) {
    for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) {
      const x = e as { code?: unknown; constraint?: unknown; message?: unknown };
      if (x.code !== '23505') continue;
      if (typeof x.constraint === 'string') return x.constraint;
      const named = typeof x.message === 'string' && /unique constraint "([^"]+)"/.exec(x.message);
      if (named) return named[1]!;
    }
    return String(err);
  }
}
