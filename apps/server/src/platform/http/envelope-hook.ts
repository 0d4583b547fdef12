import type { FastifyRequest } from 'fastify';
import { ENVELOPE_HEADERS as H, signingString, TIMESTAMP_WINDOW_MS } from '@portal/contract/envelope';
import type { Config } from '../config';
import { badEnvelope, badInput } from '../errors';
import type { Keyring } from '../envelope/keyring';
import type { NonceStore } from '../envelope/nonces';
import { openPayload, signatureValid } from '../envelope/symmetric';

interface EnvelopeDeps {
  config: Config;
  keyring: Keyring;
  nonces: NonceStore;
  hasBodySchema: boolean;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

/**
 * Opens the envelope (docs/protocol.md "Opening, in order"): cheap checks first, then the key, the
 * signature in constant time, the nonce and the payload (each 422); only then validation.
 */
export async function openEnvelope(req: FastifyRequest, deps: EnvelopeDeps): Promise<void> {
  const aes = header(req, H.aes);
  if (!aes && deps.config.envelope === 'optional') return;
  const keyId = header(req, H.keyId);
  const ts = header(req, H.timestamp);
  const nonce = header(req, H.nonce);
  const signature = header(req, H.signature);
  if (!aes || !keyId || !ts || !nonce || !signature) throw badEnvelope('请求未加密或缺少签名');
  if (!/^\d{1,16}$/.test(ts) || Math.abs(Date.now() - Number(ts)) > TIMESTAMP_WINDOW_MS) {
    throw badEnvelope('请求已过期，请校准系统时间后重试');
  }
  if (!/^[A-Za-z0-9]{16,64}$/.test(nonce)) throw badEnvelope('请求随机数格式不正确');
  if (aes.length > 1024) throw badEnvelope('密钥格式不正确');

  let payload = '';
  const raw = req.body;
  if (raw !== undefined && raw !== null) {
    const keys = typeof raw === 'object' ? Object.keys(raw) : [];
    const p = (raw as { payload?: unknown }).payload;
    if (keys.length !== 1 || typeof p !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(p)) {
      throw badEnvelope('请求体不是有效的加密信封');
    }
    payload = p;
  }

  const opened = await deps.keyring.openKey(keyId, aes);
  if ('refused' in opened) {
    throw badEnvelope(
      opened.refused === 'expired'
        ? '加密密钥已超过10分钟，请重新生成后重试'
        : '加密密钥无效或已过期，请刷新页面后重试',
    );
  }
  const { key } = opened;
  const text = signingString(req.method, req.url, ts, nonce, payload);
  if (!signatureValid(key, text, signature.toLowerCase())) throw badEnvelope('请求签名校验失败');
  if (!(await deps.nonces.claim(nonce))) throw badEnvelope('重复的请求已被拒绝');

  if (payload === '') {
    req.body = deps.hasBodySchema ? {} : undefined;
    return;
  }
  let plain: string;
  try {
    plain = openPayload(key, payload);
  } catch {
    throw badEnvelope('请求解密失败');
  }
  try {
    req.body = JSON.parse(plain) as unknown;
  } catch {
    throw badInput('请求体不是有效的JSON');
  }
}
