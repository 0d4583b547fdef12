import {
  BIZ_TYPE_LABELS,
  BIZ_TYPE_MENUS,
  BIZ_TYPES,
  bizTypeQuery,
  PRINT_CATALOGUES,
  PRINT_MENU,
  PRINT_PATHS,
  printContractDraftSchema,
  printDocSchema,
  templateCodeQuery,
  templateListSchema,
  templateSaveSchema,
  type BizType,
  type CompanyPrintData,
  type PdfStatus,
} from '@portal/contract/print';
import { placeholderHints } from '@portal/contract/print/data';
import { button, menu } from '@portal/contract/menus';
import type { FastifyReply } from 'fastify';
import type { PortalModule } from '../../platform/module';
import { permAllows } from '../../platform/http/route';
import { contentDisposition } from '../../platform/http/download';
import { badInput, noPermission, notFound } from '../../platform/errors';
import { findChromium } from '../../platform/chromium';
import { PdfRenderer } from '../../platform/pdf';
import type { SessionUser } from '../../platform/auth/sessions';
import { companyDict } from '../company';
import { LANDSCAPE_TYPES, printPage } from '@portal/contract/print/page';
import { contractDraftSource, PRINT_LOADERS, type PrintOptions } from './sources';
import {
  cleanTemplate,
  deleteTemplate,
  listTemplates,
  printingTemplate,
  renderBody,
  saveTemplate,
  setTemplateState,
  viewTemplate,
} from './service';
import { seedStandardTemplates } from './seed';

import { UNSCOPED } from '../../platform/http/route-scope';
import { rowVisibility, scopeKind, type ScopeKind } from '../../platform/auth/row-scope';

const DESIGNERS = [button(PRINT_MENU, 'save'), button(PRINT_MENU, 'add')];
const PRINTERS = [...new Set(BIZ_TYPES.map((t) => button(BIZ_TYPE_MENUS[t], 'print')))];
const CONTRACT_EDITORS = [button(BIZ_TYPE_MENUS.contract, 'add'), button(BIZ_TYPE_MENUS.contract, 'save')];

/** The document each print type is made from: its data scope is the print's. */
const PRINT_KINDS: Record<BizType, ScopeKind> = {
  contract: 'contract',
  repayment: 'contract',
  handover: 'handover',
  prepayment: 'prepayment',
  writeOff: 'paid',
  credit: 'credit',
  loan: 'loan',
  // A statement is printed for a customer (and, narrowed, one of its contracts in scope).
  statement: 'customer',
  classAdjust: 'classAdjust',
  assignNotice: 'assignNotice',
  buyback: 'buyback',
};
const PRINT_SCOPE = {
  none: 'the document named by bizType and docCode is checked in renderDoc (PRINT_KINDS)',
};
const DRAFT_SCOPE = { none: 'prints the unsaved contract sent in the body, nothing stored' };

function demand(user: SessionUser, perms: readonly string[]): void {
  if (permAllows(perms, user) !== 'ok') throw noPermission();
}

function sendHtml(reply: FastifyReply, html: string): void {
  void reply
    .code(200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(html);
}

export const printModule: PortalModule = {
  name: 'print',
  async register({ api, app, db, config, clock, params }) {
    const company = (): CompanyPrintData => {
      const c = params.current;
      return {
        companyName: c.companyName,
        companyAddress: c.companyAddress ?? null,
        companyRegNo: c.companyRegNo ?? null,
        companySeal: c.companySeal ?? null,
        companySignatory: c.companySignatory ?? null,
      };
    };
    // Without a Chromium the office still starts: one warning, and the PDF call answers why
    // (the HTML preview prints through the browser; docs/operations.md "Print PDFs and Chromium").
    const browser = await findChromium(config.chromiumPath);
    if (!browser.available && browser.warning) app.log.warn(browser.warning);
    const pdf = browser.available
      ? new PdfRenderer({ executablePath: browser.executablePath, timeoutMs: config.pdfTimeoutMs })
      : browser.reason;
    if (typeof pdf !== 'string') app.addHook('onClose', () => pdf.close());

    api.post(
      PRINT_PATHS.pdfStatus,
      { perm: 'session', scope: UNSCOPED.reference, summary: 'whether PDFs render here, and why not' },
      async (): Promise<PdfStatus> =>
        typeof pdf === 'string' ? { available: false, reason: pdf } : { available: true, reason: null },
    );
    api.post(PRINT_PATHS.bizTypeList, { perm: 'session', scope: UNSCOPED.reference }, async () =>
      BIZ_TYPES.map((t) => ({ code: t, label: BIZ_TYPE_LABELS[t] })),
    );
    api.post(
      PRINT_PATHS.info,
      { perm: menu(PRINT_MENU), scope: UNSCOPED.reference, query: bizTypeQuery },
      async ({ query }) => ({
        bizType: query.bizType,
        label: PRINT_CATALOGUES[query.bizType].label,
        ...placeholderHints(query.bizType),
      }),
    );
    api.post(PRINT_PATHS.getCoreComp, { perm: menu(PRINT_MENU), scope: UNSCOPED.picker }, async () =>
      companyDict(db, { role: 'core' }),
    );
    api.post(
      PRINT_PATHS.list,
      { perm: menu(PRINT_MENU), scope: UNSCOPED.reference, body: templateListSchema },
      async ({ body }) => listTemplates(db, body),
    );
    api.post(
      PRINT_PATHS.view,
      { perm: menu(PRINT_MENU), scope: UNSCOPED.reference, query: templateCodeQuery },
      async ({ query }) => viewTemplate(db, query.bizCode),
    );
    api.post(
      PRINT_PATHS.save,
      { perm: DESIGNERS, scope: UNSCOPED.reference, body: templateSaveSchema },
      async ({ body, user, actor }) => {
        demand(user, [button(PRINT_MENU, body.bizCode ? 'save' : 'add')]);
        return saveTemplate(db, body, actor);
      },
    );
    for (const [path, state] of [
      [PRINT_PATHS.enable, 'enabled'],
      [PRINT_PATHS.disable, 'disabled'],
    ] as const) {
      api.post(
        path,
        {
          perm: button(PRINT_MENU, state === 'enabled' ? 'enable' : 'disable'),
          scope: UNSCOPED.reference,
          query: templateCodeQuery,
        },
        async ({ query, actor }) => {
          await setTemplateState(db, query.bizCode, state, actor);
          return null;
        },
      );
    }
    api.post(
      PRINT_PATHS.delete,
      { perm: button(PRINT_MENU, 'delete'), scope: UNSCOPED.reference, query: templateCodeQuery },
      async ({ query, actor }) => {
        await deleteTemplate(db, query.bizCode, actor);
        return null;
      },
    );

    /** A document rendered with its template (or, for designers, with a draft body). */
    const renderDoc = async (
      body: {
        bizType: BizType;
        docCode: string;
        tplBizCode?: string | undefined;
        content?: string | undefined;
      } & PrintOptions,
      user: SessionUser,
    ) => {
      const docMenu = BIZ_TYPE_MENUS[body.bizType];
      if (body.content === undefined) demand(user, [button(docMenu, 'print')]);
      else {
        // A designer previews a draft on a real document only if they may open that screen.
        demand(user, DESIGNERS);
        demand(user, [menu(docMenu)]);
      }
      // A print follows its document: outside the user's data scope it is missing (SECURITY.md).
      const kind = PRINT_KINDS[body.bizType];
      if ((await rowVisibility(db, kind, body.docCode, user)) === 'hidden')
        throw notFound(scopeKind(kind).label);
      const source = await PRINT_LOADERS[body.bizType](db, body.docCode, user, clock.today(), {
        dateFrom: body.dateFrom,
        dateTo: body.dateTo,
        contBizCode: body.contBizCode,
      });
      const content =
        body.content === undefined
          ? (await printingTemplate(db, body.bizType, source.coreCompCode, body.tplBizCode)).content
          : cleanTemplate(body.bizType, body.content);
      const title = `${BIZ_TYPE_LABELS[body.bizType]}-${body.docCode}`;
      const landscape = LANDSCAPE_TYPES.has(body.bizType);
      return {
        title,
        landscape,
        html: printPage(title, renderBody(body.bizType, content, source, company()), source.mark, {
          landscape,
        }),
      };
    };

    api.post(
      PRINT_PATHS.perViewHtml,
      {
        perm: [...PRINTERS, ...DESIGNERS],
        scope: PRINT_SCOPE,
        body: printDocSchema,
        raw: true,
        summary: 'text/html',
      },
      async ({ body, user, reply }) => sendHtml(reply, (await renderDoc(body, user)).html),
    );
    api.post(
      PRINT_PATHS.perViewPdf,
      {
        perm: PRINTERS,
        scope: PRINT_SCOPE,
        body: printDocSchema.omit({ content: true }),
        raw: true,
        summary: 'application/pdf, A4',
      },
      async ({ body, user, reply }) => {
        if (typeof pdf === 'string') throw badInput(pdf);
        const { title, html, landscape } = await renderDoc(body, user);
        const file = await pdf.render(html, undefined, landscape);
        void reply
          .code(200)
          .header('content-type', 'application/pdf')
          .header('content-disposition', contentDisposition(body.disposition ?? 'inline', `${title}.pdf`))
          .header('cache-control', 'no-store')
          .send(file);
      },
    );
    api.post(
      PRINT_PATHS.preContViewHtml,
      {
        perm: CONTRACT_EDITORS,
        scope: DRAFT_SCOPE,
        body: printContractDraftSchema,
        raw: true,
        summary: 'text/html',
      },
      async ({ body, reply }) => {
        const source = await contractDraftSource(db, body.contract, clock.today());
        const template = await printingTemplate(db, 'contract', source.coreCompCode, body.tplBizCode);
        const title = `${BIZ_TYPE_LABELS.contract}-${body.contract.contractNo}`;
        sendHtml(reply, printPage(title, renderBody('contract', template.content, source, company())));
      },
    );
  },
  async seed({ db, log }) {
    const { added, upgraded } = await seedStandardTemplates({ db });
    if (added.length) log(`print: standard templates added (${added.join(', ')})`);
    if (upgraded.length) log(`print: unedited standard templates upgraded (${upgraded.join(', ')})`);
  },
};
