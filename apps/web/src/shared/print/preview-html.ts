/**
 * HTML preview: a screen stores the HTML (a print preview from perViewHtml) and opens
 * /preview-html?key=… in a new window; the page shows it in a sandboxed frame.
 */
const PREFIX = 'portal:preview-html:';

export function storePreviewHtml(html: string): string {
  const key = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  localStorage.setItem(PREFIX + key, html);
  return key;
}

export function previewHtmlUrl(key: string): string {
  return `/preview-html?key=${encodeURIComponent(key)}`;
}

export function readPreviewHtml(key: string | null): string | null {
  if (!key) return null;
  return localStorage.getItem(PREFIX + key);
}
