import { useEffect, useState } from 'react';
import { Tooltip, message } from 'antd';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';

export const FULLSCREEN_UNSUPPORTED = '当前浏览器不支持全屏';

/** Fullscreen; a warning when the browser cannot. */
export function Screenfull() {
  const [full, setFull] = useState(() => !!document.fullscreenElement);
  useEffect(() => {
    const onChange = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = () => {
    if (!document.fullscreenEnabled) {
      void message.warning(FULLSCREEN_UNSUPPORTED);
      return;
    }
    const done = document.fullscreenElement
      ? document.exitFullscreen()
      : document.documentElement.requestFullscreen();
    done.catch(() => void message.warning(FULLSCREEN_UNSUPPORTED));
  };
  const Icon = full ? FullscreenExitOutlined : FullscreenOutlined;
  return (
    <Tooltip title={full ? '退出全屏' : '全屏'}>
      <Icon className="navbar-icon" role="button" aria-label="全屏" onClick={toggle} />
    </Tooltip>
  );
}
