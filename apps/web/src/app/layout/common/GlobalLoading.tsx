import { Spin } from 'antd';
import { LOADING_TEXT, useLoadingStore } from '../../../shared/request/loading-store';
import { PortalConfigProvider } from '../../antd-shell';

/** One overlay while any request is in flight (shown after a short delay to avoid flicker). */
export default function GlobalLoading() {
  const pending = useLoadingStore((s) => s.pending);
  return (
    <PortalConfigProvider>
      <Spin fullscreen spinning={pending > 0} delay={300} description={LOADING_TEXT} />
    </PortalConfigProvider>
  );
}
