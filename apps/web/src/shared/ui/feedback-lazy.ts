import type { ConfirmOptions } from './feedback';

/**
 * The request layer's toasts and confirmations, loaded on first use: antd's message and modal
 * code then stays out of the login page's first chunk (bench/README.md). The app registers what
 * antd needs set up first (its stylesheet and static config, docs/architecture.md "The first
 * screen without antd").
 */
let setup: () => Promise<unknown> = () => Promise.resolve();
export function setFeedbackSetup(load: () => Promise<unknown>): void {
  setup = load;
}
const feedback = () => setup().then(() => import('./feedback'));

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
export function notifyError(title: string, seconds: number): void {
  void feedback().then((f) => f.notifyError(title, seconds));
}
export async function confirmAction(opts: ConfirmOptions | string): Promise<boolean> {
  return (await feedback()).confirmAction(opts);
}
export type { ConfirmOptions };
