import { connectMongo, createLogger, unpackJson, type Connection } from '@ratesmith/kit';
import { flatFeeFilter, type AdminAnswer, type AdminClient } from './app-calls';

/**
 * What the write and idempotency fault tests (tools/devstack/test/faults/)
 * need beside the fault stack (./stack.ts) and its calls (./app-calls.ts):
 * a Save All of a flat fee, and reads of the services' own databases, so a
 * test compares what the merchant was told with what MongoDB holds.
 */

/** Save All of a ruleset with a flat fee; acknowledged means 200 and `status: true`. */
export async function saveFee(
  api: AdminClient,
  rulesetId: string,
  dollars: number,
): Promise<AdminAnswer & { acknowledged: boolean }> {
  const answer = await api(`/api/global-rules/update/${rulesetId}`, {
    body: { rules: [flatFeeFilter(dollars)] },
  });
  return { ...answer, acknowledged: answer.status === 200 && answer.body?.status === true };
}

/** A direct connection to a service's database (`ratesmith_rules`, `ratesmith_auth`). */
export function openServiceDb(mongoUrl: string, dbName: string): Promise<Connection> {
  return connectMongo({
    uri: `${mongoUrl.replace(/\/$/, '')}/`,
    dbName,
    logger: createLogger('faults-test', 'silent'),
    timeoutMs: 5000,
  });
}

/** The rules service's records as MongoDB holds them. */
export async function openRulesDb(mongoUrl: string) {
  const conn = await openServiceDb(mongoUrl, 'ratesmith_rules');
  return {
    /** The fee of a ruleset's first filter (flat-fee rulesets have one). */
    async storedFee(shop: string, rulesetId: string): Promise<number | undefined> {
      const docs = await conn.db!.collection('rulesets').find({ shop }).toArray();
      const doc = docs.find((d) => String(d._id) === rulesetId);
      // Stored packed (services/rules/src/data/packed-values.ts), or nested as before.
      const packed = doc?.filters_packed as { buffer: Uint8Array } | undefined;
      const filters = (packed ? unpackJson(packed.buffer) : (doc?.filters ?? [])) as {
        action_data?: number;
      }[];
      return filters[0]?.action_data;
    },
    rulesetCount(shop: string): Promise<number> {
      return conn.db!.collection('rulesets').countDocuments({ shop });
    },
    /** The shop's active ruleset id (null: none active). */
    async activeRuleset(shop: string): Promise<string | null> {
      const doc = await conn.db!.collection('shop_settings').findOne({ shop });
      return (doc?.global_rule_id as string | null | undefined) ?? null;
    },
    /** The shop's snapshot counter: how many versions were taken. */
    async snapshotVersion(shop: string): Promise<number> {
      const doc = await conn.db!.collection('snapshot_versions').findOne({ shop });
      return (doc?.version as number | undefined) ?? 0;
    },
    /** Whether the shop is marked unpublished (a change written or being written, not yet in the bucket). */
    async snapshotMarked(shop: string): Promise<boolean> {
      const doc = await conn.db!.collection('snapshot_versions').findOne({ shop });
      return doc?.dirty === true;
    },
    close: () => conn.close(),
  };
}

/**
 * A setup step retried a few times: on two loaded cores the first admin
 * call of a fresh stack can meet a NATS timeout (503), as a merchant's
 * first load can; the merchant reloads.
 */
export async function retried<T>(step: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if (attempt >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}
