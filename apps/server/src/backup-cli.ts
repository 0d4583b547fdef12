import { loadConfig } from './platform/config';
import { backup, restore } from './platform/backup';
import { StartupError } from './platform/startup';

/**
 * `npm run backup -- FILE` and `npm run restore -- FILE` (docs/operations.md "Backup and
 * restore"): the database of DATABASE_URL, or the embedded one in DATA_DIR.
 */
const [command, file] = process.argv.slice(2);
if ((command !== 'backup' && command !== 'restore') || !file) {
  console.error('usage: npm run backup -- FILE | npm run restore -- FILE');
  process.exit(2);
}
try {
  const config = loadConfig();
  console.info(command === 'backup' ? await backup(config, file) : await restore(config, file));
} catch (err) {
  console.error(`Cannot ${command}: ${err instanceof Error ? err.message : String(err)}`);
  if (process.env.LOG_LEVEL === 'debug' && err instanceof Error && !(err instanceof StartupError))
    console.error(err.stack);
  process.exit(1);
}
