import { STATUS } from '@portal/contract/api';
import { AppError } from '../errors';

// busboy (under @fastify/multipart) reports a malformed multipart body as a plain Error: no
// boundary, a wrong boundary, truncated headers or body. It is bad input, never a fault.
const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Boundary required|Unexpected end of multipart data|Malformed part header|.* terminated early due to unexpected end of multipart data)$/;

export const MULTIPART_MESSAGE = '上传内容不是有效的multipart/form-data格式';

interface Mapped {
  status: number;
  msg: string;
  data?: unknown;
}

/** The SQLSTATE of a database error, wherever the driver or drizzle wrapped it. */
export function pgCode(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * Every failure becomes an envelope status (docs/protocol.md "Status codes and messages"). Bad input is never
 * a 5xx: framework refusals and database constraint violations map to 400/409/413; only the unexpected is
 * 500.
 */
export function mapError(err: unknown): Mapped {
  if (err instanceof AppError) return { status: err.status, msg: err.message, data: err.data };
  const e = err as { statusCode?: number; code?: string; message?: string; validation?: unknown };
  const inner = (e as { validation?: unknown; cause?: unknown }).cause;
  if (inner instanceof AppError) return { status: inner.status, msg: inner.message };
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
      return { status: STATUS.tooLarge, msg: '上传内容或请求体过大' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: STATUS.badInput, msg: '不支持的请求内容类型' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: STATUS.badInput, msg: '请求体不能为空' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: STATUS.badInput, msg: '请求体不是有效的JSON' };
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_MP_PREMATURE_CLOSE':
      return { status: STATUS.badInput, msg: MULTIPART_MESSAGE };
    case 'FST_ERR_RATE_LIMIT':
      return { status: STATUS.tooMany, msg: '请求过于频繁，请稍后再试' };
  }
  if (!e.statusCode && typeof e.message === 'string' && MALFORMED_MULTIPART.test(e.message))
    return { status: STATUS.badInput, msg: MULTIPART_MESSAGE };
  if (e.statusCode === 429) return { status: STATUS.tooMany, msg: '请求过于频繁，请稍后再试' };
  if (e.statusCode === 413) return { status: STATUS.tooLarge, msg: '上传内容或请求体过大' };
  if (e instanceof SyntaxError || (e.statusCode && e.statusCode >= 400 && e.statusCode < 500)) {
    return { status: STATUS.badInput, msg: '请求格式不正确' };
  }
  const code = pgCode(err);
  if (code === '23505') return { status: STATUS.conflict, msg: '数据重复，已存在相同记录' };
  if (code === '23514')
    return { status: STATUS.conflict, msg: '操作违反数据约束（如余额或额度不足），未做任何修改' };
  if (code === '23503') return { status: STATUS.conflict, msg: '数据被引用或引用的数据不存在' };
  if (code === '40001' || code === '40P01' || code === '55P03')
    return { status: STATUS.conflict, msg: '数据正被他人处理，请稍后重试' };
  if (code?.startsWith('22')) return { status: STATUS.badInput, msg: '数据超出允许范围' };
  return { status: STATUS.fault, msg: '系统繁忙，请稍后再试' };
}
