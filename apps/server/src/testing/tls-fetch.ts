import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { Fetch } from './http-client';

export interface TlsFetchOptions {
  /** The certificate (PEM) that the server's chain must end in: a test's own self-signed one. */
  ca: string;
  /** The address this client connects from (another loopback address stands for a remote client). */
  localAddress?: string;
  /** Headers added to every request (a forged X-Forwarded-For). */
  headers?: Record<string, string>;
}

/**
 * A fetch over node:https that trusts one given certificate and connects from a chosen address,
 * which Node's global fetch cannot be told without undici's Agent (the proxy test). The request is
 * built as a WHATWG Request first, so any body fetch takes (JSON text, FormData) is encoded alike.
 */
export function tlsFetch(opts: TlsFetchOptions): Fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    const headers: Record<string, string> = { ...opts.headers };
    req.headers.forEach((v, k) => (headers[k] = v));
    if (body) headers['content-length'] = String(body.length);
    const url = new URL(req.url);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const r = send(
        url,
        {
          method: req.method,
          headers,
          ca: opts.ca,
          ...(opts.localAddress ? { localAddress: opts.localAddress } : {}),
          // One connection per call: a rolling restart must not be hidden by a kept-alive socket.
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const h = new Headers();
            for (const [k, v] of Object.entries(res.headers)) {
              if (Array.isArray(v)) v.forEach((x) => h.append(k, x));
              else if (v !== undefined) h.set(k, String(v));
            }
            const status = res.statusCode ?? 0;
            const nullBody = status === 204 || status === 304 || (status >= 300 && status < 400);
            resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers: h }));
          });
        },
      );
      r.on('error', reject);
      r.end(body);
    });
  };
}
