import { authV1, type rulesV1 } from '@ratesmith/contracts';
import {
  AppError,
  publishEvent,
  type ClientOf,
  type Logger,
  type NatsConnection,
} from '@ratesmith/kit';
import { type ShopifyLibrary } from '@ratesmith/kit/shopify';
import type { OAuthStatesRepository } from '../data/oauth-states.repository';
import type { ShopsRepository } from '../data/shops.repository';
import type { WebhookDeliveriesRepository } from '../data/webhook-deliveries.repository';
import { appStillInstalled } from '../shopify/access-probe';
import type { TokenService } from '../tokens/token-service';

/**
 * Webhooks the gateway verified (signature, topic, and a body naming the
 * shop). Each X-Shopify-Webhook-Id acts once. The two destructive topics
 * also ask Shopify first whether the app is really gone from the shop, so a
 * webhook that was signed but not meant (a replay, a stale redelivery after
 * a reinstall) cannot uninstall or erase a shop that still has the app:
 * - app/uninstalled acts only when Shopify no longer accepts the shop's
 *   token; otherwise it is acknowledged and ignored.
 * - shop/redact is acknowledged but erases nothing while Shopify accepts
 *   the token (the time is kept as the shop's `redact_deferred_at`).
 */
export function createWebhookHandler(deps: {
  shops: ShopsRepository;
  states: OAuthStatesRepository;
  tokens: TokenService;
  deliveries: WebhookDeliveriesRepository;
  shopify: ShopifyLibrary;
  rules: ClientOf<typeof rulesV1.RulesService>;
  nc: NatsConnection;
  subjectPrefix: string;
  logger: Logger;
}) {
  const { shops, states, tokens, deliveries, rules, logger } = deps;

  async function act(topic: string, shop: string, log: Logger): Promise<void> {
    switch (topic) {
      case 'app/uninstalled':
        if (await appStillInstalled(deps, shop)) {
          log.warn('app/uninstalled, but Shopify still accepts the shop token: ignored');
          return;
        }
        await tokens.deleteTokens(shop);
        await states.deleteShop(shop);
        await shops.markUninstalled(shop);
        // The rate engine stops answering for the shop.
        await rules.call('setRateKey', { shop, rateKey: '' });
        log.info('shop uninstalled; tokens deleted');
        return;
      case 'shop/redact':
        if (await appStillInstalled(deps, shop)) {
          // Acknowledged (a refusal would have Shopify retry for days), nothing erased: the
          // shop has the app (a reinstall since, or a delivery not meant). Kept on the record.
          await shops.recordRedactDeferred(shop);
          log.warn('shop/redact, but Shopify still accepts the shop token: nothing erased');
          return;
        }
        await tokens.deleteTokens(shop);
        await states.deleteShop(shop);
        await shops.delete(shop);
        await publishEvent(
          deps.nc,
          authV1.ShopRedactedSchema,
          { shop },
          { prefix: deps.subjectPrefix, id: `shop-redacted-${shop}` },
        );
        log.info('shop redacted here; other services told');
        return;
      case 'app/scopes_update':
        // Shopify-managed install granted other scopes: the stored token keeps the old ones,
        // so the next embedded load exchanges its session for a new one. The body (which
        // names no shop) is not read: at worst a stray delivery costs one extra exchange.
        await shops.markScopesChanged(shop);
        log.info('scopes changed; the next admin load gets a new token');
        return;
      case 'customers/data_request':
      case 'customers/redact':
        // Ratesmith stores no customer data: nothing to send or delete.
        log.info('compliance webhook acknowledged: no customer data is stored');
        return;
      default:
        throw new AppError('invalid_data', 'This webhook topic is not handled.');
    }
  }

  return async (topic: string, shop: string, webhookId: string): Promise<void> => {
    const log = logger.child({ shop, topic, webhook_id: webhookId });
    const claim = await deliveries.claim(webhookId, topic);
    if (claim === 'done') {
      log.info('webhook id seen before: acknowledged, nothing done');
      return;
    }
    if (claim === 'in_progress')
      // The first delivery may still fail and release the id: Shopify retries this one.
      throw new AppError('unavailable', 'This webhook is being handled. Please retry.');
    try {
      await act(topic, shop, log);
      await deliveries.complete(webhookId);
    } catch (err) {
      // Not done: Shopify's retry of this delivery must find the id unclaimed.
      await deliveries.release(webhookId).catch(() => undefined);
      throw err;
    }
  };
}
