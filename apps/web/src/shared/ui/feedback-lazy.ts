import type { ConfirmOptions } from './feedback';

/**
 * The request layer's toasts and confirmations, loaded on first use: antd's message and modal
 * code then stays out of the login page's first chunk (bench/README.md).
 */
const feedback = () => import('./feedback');

export function showClosableWarning(text: string, seconds?: number): void {
  void feedback().then((f) => f.showClosableWarning(text, seconds));
}
export function showSuccess(text: string, seconds?: number): void {
  void feedback().then((f) => f.showSuccess(text, seconds));
}
export function showWarning(text: string, seconds?: number): void {
  void feedback().then((f) => f.showWarning(text, seconds));
}
export function showError(text: string, seconds?: number): void {
  void feedback().then((f) => f.showError(text, seconds));
}
export async function confirmAction(opts: ConfirmOptions | string): Promise<boolean> {
  return (await feedback()).confirmAction(opts);
}
export type { ConfirmOptions };
