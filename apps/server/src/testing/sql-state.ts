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
