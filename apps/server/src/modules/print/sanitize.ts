import sanitizeHtml from 'sanitize-html';

const LENGTH = /^-?\d+(\.\d+)?(px|pt|mm|cm|em|rem|%)?$/;
const LENGTHS =
  /^(-?\d+(\.\d+)?(px|pt|mm|cm|em|rem|%)?|auto)(\s+(-?\d+(\.\d+)?(px|pt|mm|cm|em|rem|%)?|auto)){0,3}$/;
const COLOR = /^(#[0-9a-f]{3,8}|[a-z]+|rgba?\([\d\s.,%]+\))$/i;
const BORDER =
  /^(none|0|(\d+(\.\d+)?(px|pt|mm)\s+(solid|dashed|dotted|double)(\s+(#[0-9a-f]{3,8}|[a-z]+))?))$/i;
const BREAK = /^(auto|always|avoid|page)$/;

/**
 * Layout styles a printed document needs; a value is a plain length, colour or keyword, so no
 * `url(…)`, `expression(…)` or `@import` can come through a style attribute.
 */
const STYLES: Record<string, RegExp[]> = {
  'text-align': [/^(left|right|center|justify)$/],
  'vertical-align': [/^(top|middle|bottom|baseline)$/],
  'font-size': [LENGTH],
  'font-weight': [/^(normal|bold|bolder|lighter|[1-9]00)$/],
  'font-style': [/^(normal|italic)$/],
  'text-decoration': [/^(none|underline|line-through)$/],
  'text-indent': [LENGTH],
  'line-height': [LENGTH, /^normal$/],
  'letter-spacing': [LENGTH],
  color: [COLOR],
  'background-color': [COLOR],
  width: [LENGTH, /^auto$/],
  height: [LENGTH, /^auto$/],
  'min-height': [LENGTH],
  margin: [LENGTHS],
  'margin-top': [LENGTH, /^auto$/],
  'margin-bottom': [LENGTH, /^auto$/],
  'margin-left': [LENGTH, /^auto$/],
  'margin-right': [LENGTH, /^auto$/],
  padding: [LENGTHS],
  'padding-top': [LENGTH],
  'padding-bottom': [LENGTH],
  'padding-left': [LENGTH],
  'padding-right': [LENGTH],
  border: [BORDER],
  'border-top': [BORDER],
  'border-bottom': [BORDER],
  'border-left': [BORDER],
  'border-right': [BORDER],
  'border-collapse': [/^(collapse|separate)$/],
  'page-break-before': [BREAK],
  'page-break-after': [BREAK],
  'page-break-inside': [BREAK],
  'break-before': [BREAK],
  'break-after': [BREAK],
  'break-inside': [BREAK],
  'white-space': [/^(normal|nowrap|pre-wrap)$/],
  float: [/^(left|right|none)$/],
};

const SEAL_PLACEHOLDER = '{{companySeal}}';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: (
    'p div span br hr h1 h2 h3 h4 h5 h6 strong b em i u s sub sup small blockquote ul ol li ' +
    'table caption colgroup col thead tbody tfoot tr th td img'
  ).split(' '),
  allowedAttributes: {
    '*': ['style', 'class', 'align', 'title'],
    td: ['colspan', 'rowspan', 'width', 'valign'],
    th: ['colspan', 'rowspan', 'width', 'valign'],
    col: ['span', 'width'],
    table: ['width', 'cellpadding', 'cellspacing', 'border'],
    img: ['src', 'alt', 'width', 'height'],
  },
  allowedStyles: { '*': STYLES },
  // Seals and logos travel inside the template as data: images; nothing is fetched from elsewhere.
  allowedSchemes: [],
  allowedSchemesByTag: { img: ['data'] },
  allowedSchemesAppliedToAttributes: ['src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // A relative src would be fetched from wherever the page is opened: only inline images stay.
  transformTags: {
    img: (tagName, attribs) => {
      const { src, ...rest } = attribs;
      return {
        tagName,
        // The seal placeholder stays in a template; it prints as a data: image (print.ts COMPANY_FIELDS).
        attribs:
          src?.trim().toLowerCase().startsWith('data:image/') || src?.trim() === SEAL_PLACEHOLDER
            ? { src, ...rest }
            : rest,
      };
    },
  },
  // script/style/textarea contents are dropped with the tag, not kept as text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'template'],
};

/** A template body or a rendered document reduced to layout markup: no script, handler or URL. */
export function sanitizeTemplateHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
