/**
 * What other modules may use of collections (docs/architecture.md "Modules"): the day-end calls
 * its reminders and promise judging. Another module imports from here, never from its files.
 */
export { collectAtDayEnd } from './service';
