import type { PortalModule } from '../../platform/module';
import { CONTRACT_SCOPE_KINDS } from './scope-kinds';
import { DEBTOR_LINKERS } from '../debtor';
import { linkContractDebtors } from './debtor-link';
import { COMPANY_USAGE } from '../company';
import { BANK_ACCOUNT_USAGE } from '../bank';
import { RULE_USAGE } from '../ruler';
import { WORKFLOW_REGISTRY } from '../workflow';
import { bankUsage, customerUsage, ruleUsage } from './usage';
import { seedDemoContracts } from './demo';
import { scheduleTallyCompaction } from './tally-timer';
import { registerInfoRoutes } from './info-routes';
import { registerPickerRoutes } from './picker-routes';
import { registerSectionRoutes } from './section-routes';
import { registerImportRoutes } from './import-routes';
import { registerChangeRoutes } from './change-routes';
import { registerHandoverRoutes } from './handover-routes';

/**
 * Contracts, their changes and handover sheets (README.md). The calls are registered by concern,
 * in the order they always were: info, pickers, sections, imports, changes, handovers.
 */
export const contractModule: PortalModule = {
  name: 'contract',
  scopeKinds: CONTRACT_SCOPE_KINDS,
  demo: seedDemoContracts,
  register(ctx) {
    const { registries, app, db } = ctx;
    const workflow = registries.get(WORKFLOW_REGISTRY);
    scheduleTallyCompaction(app, db);
    registries.get(RULE_USAGE).add(ruleUsage);
    registries.get(COMPANY_USAGE).add(customerUsage);
    registries.get(BANK_ACCOUNT_USAGE).add(bankUsage);
    registries.get(DEBTOR_LINKERS).push(linkContractDebtors);

    registerInfoRoutes(ctx, workflow);
    registerPickerRoutes(ctx);
    registerSectionRoutes(ctx, workflow);
    registerImportRoutes(ctx);
    registerChangeRoutes(ctx, workflow);
    registerHandoverRoutes(ctx, workflow);
  },
};
