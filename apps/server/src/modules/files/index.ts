/**
 * What other modules may use of files (docs/architecture.md "Modules"): they import from here,
 * never from its files, and change its tables only through these functions.
 */
export { attachFiles, fileNamesByToken, listFiles, setDocumentFiles, toFileInfo } from './service';
