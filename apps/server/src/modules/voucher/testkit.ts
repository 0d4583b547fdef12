import { expect } from 'vitest';
import { VOUCHER_PATHS, type VoucherPage, type VoucherView } from '@portal/contract/voucher';
import { servedPaths, type TestClient } from '../../testing/harness';

/** Test helpers of the voucher module: reading the vouchers through the real API. */
export const voucherApi = servedPaths(VOUCHER_PATHS);

export function voucherReader(client: () => TestClient) {
  const list = (body: Record<string, unknown> = {}) =>
    client().ok<VoucherPage>(voucherApi.list, {
      pageNum: 1,
      pageSize: 50,
      orderBy: 'voucherNo',
      order: 'asc',
      ...body,
    });
  const view = (voucherId: number) =>
    client().ok<VoucherView>(voucherApi.view, undefined, { query: { voucherId: String(voucherId) } });
  /** The one voucher of a source document. */
  const voucherOf = async (docType: string, docCode: string): Promise<VoucherView> => {
    const page = await list({ docType, docCode });
    expect(page.total).toBe(1);
    return view(page.list[0]!.voucherId);
  };
  return { list, view, voucherOf };
}
