import type { z } from 'zod';

/**
 * The Chinese message of a failed zod parse. Field builders in @portal/contract/fields name their
 * field in every message; anything else (unknown keys, a wrong container type) gets the path.
 */
export function zodMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return '请求参数不正确';
  const path = issue.path.map(String).join('.');
  // zod's own default messages are English: replace them with a Chinese one naming the path.
  if (/[\u4e00-\u9fff]/.test(issue.message)) return issue.message;
  if (issue.code === 'unrecognized_keys') return `请求参数包含未知字段：${issue.keys.join('、')}`;
  if (issue.code === 'invalid_type') {
    return path
      ? `字段 ${path} ${issue.input === undefined ? '不能为空' : '类型不正确'}`
      : '请求体格式不正确';
  }
  return path ? `字段 ${path} 不正确` : '请求参数不正确';
}

// NUL cannot be stored in PostgreSQL text and a lone surrogate cannot be encoded as UTF-8: both
// would surface as a database error naming no field. The field builders refuse them by name; this
// net catches strings no builder checks (SECURITY.md "Input").
// eslint-disable-next-line no-control-regex -- NUL is what it looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The path of the first string (value or key) holding NUL or a lone surrogate, or undefined. Runs
 * on every validated body: the path is built only on the way back from a find, so a clean body
 * allocates nothing per key.
 */
export function unstorablePath(value: unknown, depth = 0): string[] | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? [] : undefined;
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  const record = value as Record<string, unknown>;
  for (const k of Object.keys(record)) {
    if (UNSTORABLE.test(k)) return [k];
    const found = unstorablePath(record[k], depth + 1);
    if (found) return [k, ...found];
  }
  return undefined;
}

export function unstorableMessage(path: string[]): string {
  const name = path.join('.').replace(new RegExp(UNSTORABLE.source, 'g'), '?');
  return name ? `字段 ${name} 包含不允许的字符` : '请求参数包含不允许的字符';
}
