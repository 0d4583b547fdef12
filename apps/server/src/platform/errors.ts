import { STATUS } from '@portal/contract/api';

/**
 * An answer the client should see: envelope status + Chinese msg (docs/protocol.md "Status codes and
 * messages").
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badInput = (msg: string, data?: unknown) => new AppError(STATUS.badInput, msg, data);
export const notFound = (what = '记录') => new AppError(STATUS.notFound, `${what}不存在`);
export const conflict = (msg: string) => new AppError(STATUS.conflict, msg);
export const noSession = (msg = '登录已失效，请重新登录') => new AppError(STATUS.noSession, msg);
export const noPermission = (msg = '没有该操作的权限') => new AppError(STATUS.forbiddenCode, msg);
export const badEnvelope = (msg: string) => new AppError(STATUS.badEnvelope, msg);
export const tooMany = (msg: string) => new AppError(STATUS.tooMany, msg);

export const STALE_VERSION_MSG = '数据已被他人修改，请刷新后重试';
