import { queryOptions } from '@tanstack/react-query';
import { PRINT_PATHS, type BizType, type PdfStatus, type PrintDoc } from '@portal/contract/print';
import { exportFile, post } from '../request/http';
import { previewHtmlUrl, storePreviewHtml } from './preview-html';

/**
 * Print calls shared by every document screen: the HTML preview opens /preview-html in
 * a new window; the PDF comes back as a blob (50 s timeout) to view or save.
 */

export async function openHtmlPreview(path: string, body: unknown): Promise<void> {
  // The window opens before the call so that the browser treats it as the user's own action.
  const win = window.open('about:blank', '_blank');
  try {
    const blob = await exportFile(path, body, { save: false });
    const url = previewHtmlUrl(storePreviewHtml(await blob.text()));
    if (win) win.location.href = url;
    else window.open(url, '_blank');
  } catch (err) {
    win?.close();
    throw err;
  }
}

export function previewDocument(doc: PrintDoc): Promise<void> {
  return openHtmlPreview(PRINT_PATHS.perViewHtml, doc);
}

export function documentPdf(
  bizType: BizType,
  docCode: string,
  disposition: 'inline' | 'attachment',
): Promise<Blob> {
  return exportFile(
    PRINT_PATHS.perViewPdf,
    { bizType, docCode, disposition },
    { pdf: true, save: disposition === 'attachment', fileName: `${docCode}.pdf` },
  );
}

/** The keys of the print queries. */
const pdfKeys = {
  status: ['print', 'pdfStatus'] as const,
};

/** The print reads as query options. */
export const pdfQueries = {
  /**
   * Whether the server renders PDFs: asked once per session (when `enabled`), it does not change
   * while it runs.
   */
  status: (enabled: boolean) =>
    queryOptions({
      queryKey: pdfKeys.status,
      queryFn: () => post<PdfStatus>(PRINT_PATHS.pdfStatus, {}),
      staleTime: Infinity,
      enabled,
    }),
};
