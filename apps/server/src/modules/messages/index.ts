/**
 * What other modules may use of messages (docs/architecture.md "Modules"): the workflow tells the
 * deciders of a waiting step, the announcements their audience. Another module that needs to call
 * it imports from here, never from its files.
 */
export {
  addCollectionMessages,
  addGuaranteeMessages,
  addJobFailedMessages,
  syncNoticeMessages,
  todoMessagesInsert,
} from './service';
