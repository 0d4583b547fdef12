import Bowser from 'bowser';

/** A sign-in's browser and system in words, read from its user agent (bowser). */
export interface UserAgentWords {
  browser: string;
  os: string;
  device: string;
}

const DEVICE_LABELS: Record<string, string> = {
  desktop: '电脑',
  mobile: '手机',
  tablet: '平板',
  tv: '电视',
  bot: '爬虫',
};

const named = (name: string | undefined, version: string | undefined) =>
  name ? [name, version].filter(Boolean).join(' ') : '未知';

/**
 * 登录日志 and 在线用户 show the browser and the operating system, not the raw user agent
 * (docs/operations.md "登录日志"); the raw text stays in 详情. No user agent shows 未知.
 */
export function describeUserAgent(ua: string | null | undefined): UserAgentWords {
  if (!ua) return { browser: '未知', os: '未知', device: '未知' };
  const p = Bowser.parse(ua);
  const osVersion = p.os.versionName ?? p.os.version;
  return {
    browser: named(p.browser.name, p.browser.version?.split('.')[0]),
    os: named(p.os.name, osVersion),
    device: DEVICE_LABELS[p.platform.type ?? ''] ?? '未知',
  };
}
