import { Spin } from 'antd';
import { LOADING_TEXT, useLoadingStore } from '../../../shared/request/loading-store';

/** One overlay while any request is in flight (shown after a short delay to avoid flicker). */
export function GlobalLoading() {
  const pending = useLoadingStore((s) => s.pending);
  return <Spin fullscreen spinning={pending > 0} delay={300} description={LOADING_TEXT} />;
}
