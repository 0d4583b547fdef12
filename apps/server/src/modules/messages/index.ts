/**
 * What other modules may use of messages (docs/architecture.md "Modules"): the workflow tells the
 * deciders of a waiting step. Another module that needs to call it imports from here, never from
 * its files.
 */
export { addTodoMessages } from './service';
