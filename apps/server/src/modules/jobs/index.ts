/**
 * What other modules may use of jobs (docs/architecture.md "Modules"): nothing yet. Another module
 * that needs to call it imports from here, never from its files.
 */
export {};
