import { extractText, getDocumentProxy } from 'unpdf';

/** What the PDF tests read from a PDF, with pdf.js (unpdf): page count, first page size, text per page. */
export interface PdfContent {
  pages: number;
  /** Width and height of the first page in points (A4: 595.28 × 841.89). */
  size: [number, number];
  /** Each page's text, items joined by spaces. */
  text: string[];
  /** Base names of the embedded fonts (subset prefix dropped), e.g. NotoSansSC. */
  fonts: string[];
}

/**
 * pdf.js reads fonts with ArrayBuffer.prototype.transferToFixedLength, which Node has from 21 on;
 * on Node 20 (engines allows it) the copy it stands for is given here, for the tests only.
 */
const proto = ArrayBuffer.prototype as ArrayBuffer & { transferToFixedLength?: (n?: number) => ArrayBuffer };
proto.transferToFixedLength ??= function (this: ArrayBuffer, length = this.byteLength) {
  const copy = new Uint8Array(length);
  copy.set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
  return copy.buffer;
};

export async function readPdf(file: Uint8Array): Promise<PdfContent> {
  const pdf = await getDocumentProxy(new Uint8Array(file));
  try {
    const first = await pdf.getPage(1);
    const { width, height } = first.getViewport({ scale: 1 });
    const { text } = await extractText(pdf, { mergePages: false });
    const fonts = new Set<string>();
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const ops = await page.getOperatorList();
      ops.fnArray.forEach((fn, i) => {
        if (fn !== OPS_SET_FONT) return;
        const id = (ops.argsArray[i] as [string])[0];
        const font = page.commonObjs.get(id) as { name?: string };
        if (font.name) fonts.add(font.name.replace(/^[A-Z]{6}\+/, ''));
      });
    }
    return { pages: pdf.numPages, size: [width, height], text, fonts: [...fonts].sort() };
  } finally {
    await pdf.cleanup();
  }
}

/** pdf.js's operator code of setFont (OPS.setFont). */
const OPS_SET_FONT = 37;
