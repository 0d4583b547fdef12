/**
 * What other modules may use of workflow (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { registerDocument, removeDraft, saveDraft, type Written } from './pipeline';
export { records } from './queries';
export { WORKFLOW_REGISTRY, type WorkflowDoc, type WorkflowRegistry } from './registry';
export { allowSelfApproval, assertEditable, SELF_APPROVAL_MSG } from './service';
