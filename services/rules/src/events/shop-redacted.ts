import { authV1 } from '@ratesmith/contracts';
import { consumeEvents, type Logger, type NatsConnection } from '@ratesmith/kit';
import type { KV } from '@nats-io/kv';
import type { Repositories } from '../data/repositories';

/**
 * shop/redact (48 hours after uninstall): deletes every document of the
 * shop in this service's database and its snapshot in the bucket. A durable
 * JetStream consumer, acknowledged after the deletes, so an event sent while
 * this service was down is handled when it comes back; deleting twice is
 * harmless.
 */
export async function consumeShopRedacted(deps: {
  nc: NatsConnection;
  kv: KV;
  repos: Repositories;
  logger: Logger;
  subjectPrefix: string;
  /** JETSTREAM_REPLICAS, for the events stream if this creates it. */
  replicas?: number;
  /** Waits for this replica's writes of the shop still under way (versions written after a save's answer). */
  settle: (shop: string) => Promise<void>;
}) {
  return consumeEvents({
    nc: deps.nc,
    schema: authV1.ShopRedactedSchema,
    durable: 'rules',
    prefix: deps.subjectPrefix,
    replicas: deps.replicas,
    logger: deps.logger,
    handler: async ({ shop }) => {
      if (!shop) return;
      await deps.settle(shop);
      // Every repository's collection is keyed by shop, so none is left out as repositories are added.
      for (const repo of Object.values(deps.repos)) await repo.deleteShop(shop);
      await deps.kv.purge(shop);
      deps.logger.info({ shop }, 'shop redacted');
    },
  });
}
