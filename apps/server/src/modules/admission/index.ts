/**
 * What other modules may use of admission (docs/architecture.md "Modules"): nothing; the admission
 * state it sets lives on the customer (company module: requireAdmittedCustomer).
 */
export {};
