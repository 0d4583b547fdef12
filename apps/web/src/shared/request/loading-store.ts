import { create } from 'zustand';

/** One global loading overlay counting the requests in flight (docs/protocol.md "The web client"). */
export const LOADING_TEXT = '正在加载中......';

interface LoadingState {
  pending: number;
}

export const useLoadingStore = create<LoadingState>()(() => ({ pending: 0 }));

export function beginLoading(): void {
  useLoadingStore.setState((s) => ({ pending: s.pending + 1 }));
}

export function endLoading(): void {
  useLoadingStore.setState((s) => ({ pending: Math.max(0, s.pending - 1) }));
}
