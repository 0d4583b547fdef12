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
