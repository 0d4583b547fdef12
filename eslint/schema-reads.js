/**
 * Which server module reads which other modules' tables directly (docs/module-map.md,
 * docs/architecture.md "Modules"): in drizzle (a table imported from the other's schema.ts) or in
 * SQL text (`from <table>`, `join <table>`). Every other tie between modules goes through a
 * function of the owner's index.ts. The lint rule in boundaries.js refuses an undeclared read, and
 * a declaration here that no file of the module uses any more. A read declared here is for reading
 * (and locking) only: a write of another module's table is refused whatever this says. A read is
 * no import of the owner's code, so it never makes an import cycle (test/module-cycles.test.ts):
 * where the owner already depends on the reader, the read stays here rather than becoming a call.
 */
export const SCHEMA_READS = {
  admission: ['company'],
  // Whether the 放款单 maker is the one waiving (a checker must): loan depends on assignment.
  assignment: ['contract', 'loan'],
  baddebt: ['contract'],
  // The latest date an approved money document posted on (a business date never goes back past it).
  bizdate: ['contract', 'income', 'loan', 'paid', 'prepayment'],
  buyback: ['contract', 'income'],
  // The contracts it classifies; the provision the vouchers hold per contract (voucher_lines).
  classification: ['contract', 'voucher'],
  collections: ['contract'],
  // The contract list's 转让通知 column reads assignment_notices (raw SQL, docs/assignment-notice.md);
  // the plan's paid figures read the dated write-offs (contract/open-items.ts, docs/money-rules.md).
  contract: ['assignment', 'bank', 'credit', 'files', 'paid', 'ruler'],
  credit: ['company'],
  // A customer's approval history names its bank accounts' changes.
  crm: ['bank', 'company'],
  'crm-change': ['company', 'crm'],
  // The portfolio figures are sums over the money documents.
  dashboard: ['contract', 'income', 'loan', 'paid'],
  debtor: ['company', 'contract', 'credit'],
  income: ['bank', 'contract', 'paid'],
  // The ledger and the customer statement are sums over the plans and the money documents.
  ledger: ['company', 'contract', 'loan', 'paid', 'ruler', 'voucher'],
  loan: ['bank', 'contract', 'paid'],
  // The inbox lists the announcements for the user's organisation.
  messages: ['notices'],
  // An 附件 row of the operation log names its file.
  monitor: ['files'],
  paid: ['bank', 'company', 'contract', 'income'],
  permit: ['company', 'crm'],
  prepayment: ['contract'],
  print: ['bank', 'ruler'],
  regulator: ['company', 'contract'],
  voucher: ['contract'],
};
