import { authV1, type rulesV1 } from '@ratesmith/contracts';
import { publishEvent, type ClientOf, type Logger, type NatsConnection } from '@ratesmith/kit';
import type { OAuthStatesRepository } from '../data/oauth-states.repository';
import type { ShopsRepository } from '../data/shops.repository';
import type { TokenService } from '../tokens/token-service';

/**
 * Webhooks the gateway verified. Every branch is idempotent: Shopify
 * redelivers, and a redelivery repeats deletes that already happened.
 */
export function createWebhookHandler(deps: {
  shops: ShopsRepository;
  states: OAuthStatesRepository;
  tokens: TokenService;
  rules: ClientOf<typeof rulesV1.RulesService>;
  nc: NatsConnection;
  subjectPrefix: string;
  logger: Logger;
}) {
  const { shops, states, tokens, rules, logger } = deps;
  return async (topic: string, shop: string, webhookId: string): Promise<void> => {
    const log = logger.child({ shop, topic, webhook_id: webhookId });
    switch (topic) {
      case 'app/uninstalled':
        await tokens.deleteTokens(shop);
        await states.deleteShop(shop);
        await shops.markUninstalled(shop);
        // The rate engine stops answering for the shop.
        await rules.call('setRateKey', { shop, rateKey: '' });
        log.info('shop uninstalled; tokens deleted');
        return;
      case 'shop/redact':
        await tokens.deleteTokens(shop);
        await states.deleteShop(shop);
        await shops.delete(shop);
        await publishEvent(
          deps.nc,
          authV1.ShopRedactedSchema,
          { shop },
          {
            prefix: deps.subjectPrefix,
            id: `shop-redacted-${shop}`,
          },
        );
        log.info('shop redacted here; other services told');
        return;
      case 'customers/data_request':
      case 'customers/redact':
        // Ratesmith stores no customer data: nothing to send or delete.
        log.info('compliance webhook acknowledged: no customer data is stored');
        return;
      default:
        log.info('webhook topic not handled; acknowledged');
    }
  };
}
