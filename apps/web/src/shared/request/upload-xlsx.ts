import { API_PREFIX, type ApiResponse } from '@portal/contract/api';
import { getToken } from '../auth/token';
import { showClosableWarning } from '../ui/feedback';

/**
 * An xlsx import call (multipart carries only the session, no envelope: docs/protocol.md "The envelope"): the
 * file under "file" plus plain fields; answers the preview data, or shows the server's msg and throws.
 */
export async function postXlsx<T>(path: string, file: File, fields: Record<string, string> = {}): Promise<T> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', file);
  const token = getToken();
  const res = await fetch(`${API_PREFIX}${path}`, {
    method: 'POST',
    body: form,
    credentials: 'include',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const body = (await res.json().catch(() => ({ ok: false, msg: '导入失败' }))) as ApiResponse<T>;
  if (!body.ok) {
    showClosableWarning(body.msg || 'Error');
    throw new Error(body.msg);
  }
  return body.data as T;
}
