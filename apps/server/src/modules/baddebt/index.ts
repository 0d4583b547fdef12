/**
 * What other modules may use of baddebt (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */

// Other modules use nothing of baddebt today; its routes register through modules/index.ts.
export {};
