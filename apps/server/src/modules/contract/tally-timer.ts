import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/client';
import { compactContractTally } from './tally';

const TALLY_COMPACTION_MS = 60_000;

/**
 * The list's tally gathers a delta row per write; folding them every minute keeps its sums short
 * (README.md "The list's total"). The timer lives on the module's plugin and stops when it closes.
 */
export function scheduleTallyCompaction(app: FastifyInstance, db: Db): void {
  const compaction = setInterval(
    () =>
      void compactContractTally(db).catch((err: unknown) =>
        app.log.error({ err }, 'contract tally compaction failed'),
      ),
    TALLY_COMPACTION_MS,
  );
  compaction.unref();
  app.addHook('onClose', async () => clearInterval(compaction));
}
