import { useEffect } from 'react';
import { isMobileWidth, useSettingsStore } from './settings-store';

/** Mobile mode when the window is narrower than 992. */
export function useResponsive(): void {
  const setDevice = useSettingsStore((s) => s.setDevice);
  useEffect(() => {
    const update = () => {
      if (document.hidden) return;
      setDevice(isMobileWidth(window.innerWidth) ? 'mobile' : 'desktop');
    };
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [setDevice]);
}
