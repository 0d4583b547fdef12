import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { creditLines, credits } from './schema';

/** A customer with a credit (or a distributed line) cannot be deleted (company module's usage check). */
export async function customerUsage(ex: Executor, compCode: string): Promise<string | null> {
  const [c] = await ex
    .select({ code: credits.bizCode })
    .from(credits)
    .where(and(eq(credits.custCode, compCode), isNull(credits.deletedAt)))
    .limit(1);
  if (c) return `授信 ${c.code}`;
  const [l] = await ex
    .select({ code: creditLines.bizCode })
    .from(creditLines)
    .where(eq(creditLines.custCode, compCode))
    .limit(1);
  return l ? `授信额度 ${l.code}` : null;
}
