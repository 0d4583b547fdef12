import {
  createClientKey,
  importRsaPublicKey,
  sealRequest,
  type ClientEnvelopeKey,
} from '@portal/contract/envelope';
import type { ApiResponse } from '@portal/contract/api';

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * A client of a real server over HTTP, speaking the wire protocol (docs/protocol.md; crash tests, benchmarks,
 * e2e).
 */
export class HttpClient {
  private key: ClientEnvelopeKey | undefined;
  token: string | undefined;

  /** `transport`: how requests go out (default: Node's fetch; the proxy test's TLS client: testing/tls-fetch.ts). */
  constructor(
    readonly baseUrl: string,
    private readonly transport: Fetch = (input, init) => fetch(input, init),
  ) {}

  private async envelopeKey(): Promise<ClientEnvelopeKey> {
    if (!this.key) {
      const res = await this.transport(`${this.baseUrl}/api/admin/portal/login/user/rsa/secretKey`, {
        method: 'POST',
      });
      const { data } = (await res.json()) as ApiResponse<{ keyId: string; publicKey: string }>;
      this.key = await createClientKey(data!.keyId, await importRsaPublicKey(data!.publicKey));
    }
    return this.key;
  }

  /** The same envelope key and session against another server (several servers share both). */
  async on(baseUrl: string): Promise<HttpClient> {
    const other = new HttpClient(baseUrl, this.transport);
    other.key = await this.envelopeKey();
    other.token = this.token;
    return other;
  }

  /** One sealed request, to send as it is (replay tests). */
  async seal(
    path: string,
    body?: unknown,
  ): Promise<{ url: string; headers: Record<string, string>; body?: string }> {
    const sealed = await sealRequest(await this.envelopeKey(), 'POST', path, body);
    return {
      url: path,
      headers: { ...sealed.headers, ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) },
      ...(sealed.body !== undefined ? { body: sealed.body } : {}),
    };
  }

  /** Sends a sealed request to this client's server; answers the response body. */
  async send<T>(req: {
    url: string;
    headers: Record<string, string>;
    body?: string;
  }): Promise<ApiResponse<T>> {
    const res = await this.transport(this.baseUrl + req.url, {
      method: 'POST',
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
    });
    return (await res.json()) as ApiResponse<T>;
  }

  async call<T>(path: string, body?: unknown, query?: Record<string, string>): Promise<ApiResponse<T>> {
    const url = path + (query ? `?${new URLSearchParams(query).toString()}` : '');
    const sealed = await sealRequest(await this.envelopeKey(), 'POST', url, body);
    const headers: Record<string, string> = {
      ...sealed.headers,
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
    };
    const res = await this.transport(this.baseUrl + url, {
      method: 'POST',
      headers,
      ...(sealed.body !== undefined ? { body: sealed.body } : {}),
    });
    return (await res.json()) as ApiResponse<T>;
  }

  /** Calls and insists on status 200; answers data. */
  async ok<T>(path: string, body?: unknown, query?: Record<string, string>): Promise<T> {
    const r = await this.call<T>(path, body, query);
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.msg}`);
    return r.data as T;
  }

  async login(userName: string, passWord: string): Promise<void> {
    const r = await this.call<{ accessToken: string }>('/api/admin/portal/api/login/user/mobileNumberLogin', {
      userName,
      passWord,
      userType: '2',
    });
    if (!r.ok) throw new Error(`login failed: ${r.msg}`);
    this.token = r.data!.accessToken;
  }
}
