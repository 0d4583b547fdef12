/**
 * Which server module reads which other modules' tables directly (docs/module-map.md). Every other
 * tie between modules goes through a function; a new direct read is refused by the lint rule in
 * boundaries.js until it is declared here. A tie declared here is for reading (and locking) only:
 * a write of another module's table is refused whatever this says.
 */
export const SCHEMA_READS = {
  admission: ['company'],
  assignment: ['contract'],
  baddebt: ['contract'],
  bizdate: ['contract'],
  buyback: ['contract', 'income'],
  collections: ['contract'],
  // The contract list's 转让通知 column reads assignment_notices (raw SQL, docs/assignment-notice.md).
  contract: ['assignment', 'bank', 'credit', 'files', 'ruler'],
  credit: ['company'],
  crm: ['company'],
  'crm-change': ['company', 'crm'],
  income: ['bank', 'contract', 'paid'],
  loan: ['contract', 'paid'],
  paid: ['bank', 'contract', 'income'],
  permit: ['company', 'crm'],
  prepayment: ['contract'],
  regulator: ['company', 'contract'],
  voucher: ['contract'],
};
