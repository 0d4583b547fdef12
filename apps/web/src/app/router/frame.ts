import { HIDE_HEADER_PARAM } from './guard';

/** Is this page in a frame, and did the embedding page ask for the header menu to be hidden? */
export function isEmbeddedWithHiddenHeader(search: string): { embedded: boolean; headerHidden: boolean } {
  let embedded = false;
  try {
    embedded = window.self !== window.top;
  } catch {
    embedded = true;
  }
  const flag = new URLSearchParams(search).get(HIDE_HEADER_PARAM);
  return { embedded, headerHidden: flag === '1' || flag === 'true' };
}
