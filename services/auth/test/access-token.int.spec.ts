import { createLogger } from '@ratesmith/kit';
import { TokensRepository } from '../src/data/tokens.repository';
import { parseEncryptionKeys, TokenCipher } from '../src/tokens/encryption';
import { NOT_CONNECTED, TokenService } from '../src/tokens/token-service';
import { API_SECRET, startAuthStack, TOKEN_KEYS, type AuthStack } from './harness';

let stack: AuthStack;
beforeAll(async () => {
  stack = await startAuthStack();
});
afterAll(() => stack?.stop());

const SHOP = 'token-shop.myshopify.com';

async function install(shop: string) {
  await stack.service.tokens.exchangeSessionToken(shop, stack.sessionToken(shop));
  await stack.service.shops.markInstalled(shop);
}

/**
 * The shop's offline token inside auth (RunAdminQuery, the carrier service and
 * the uninstall check use it; it never leaves the service).
 */
describe('the access token', () => {
  it('hands out the token Shopify issued, stored only sealed', async () => {
    await install(SHOP);
    const reply = await stack.service.tokens.getAccessToken(SHOP);
    expect(stack.shopify.oauth.accessTokensOf(SHOP)).toEqual([reply.accessToken]);
    expect(reply.scope).toBe('read_products,write_shipping');
    const raw = await stack.conn.db!.collection('tokens').findOne({ shop: SHOP });
    expect(raw!.sealed.kid).toBe('k1');
    expect(JSON.stringify(raw)).not.toContain(reply.accessToken);
    expect(JSON.stringify(raw)).not.toContain('shprt_');
  });

  it('refreshes an expiring token once for two concurrent callers', async () => {
    const shop = 'refresh-shop.myshopify.com';
    await install(shop);
    const before = await stack.service.tokens.getAccessToken(shop);
    stack.shopify.oauth.expireAccessTokens(shop);
    await stack.conn
      .db!.collection('tokens')
      .updateOne({ shop }, { $set: { expires_at: new Date(Date.now() - 1000) } });
    const refreshes = stack.shopify.oauth.stats.refreshes;
    const [a, b] = await Promise.all([
      stack.service.tokens.getAccessToken(shop),
      stack.service.tokens.getAccessToken(shop),
    ]);
    expect(stack.shopify.oauth.stats.refreshes).toBe(refreshes + 1);
    expect(a.accessToken).toBe(b.accessToken);
    expect(a.accessToken).not.toBe(before.accessToken);
    expect(stack.shopify.oauth.shopOfAccessToken(a.accessToken)).toBe(shop);
    // The refreshed token is stored: the next call does not refresh again.
    await stack.service.tokens.getAccessToken(shop);
    expect(stack.shopify.oauth.stats.refreshes).toBe(refreshes + 1);
  });

  it('refreshes once when two replicas see the expiry at the same moment', async () => {
    const shop = 'replicas-shop.myshopify.com';
    await install(shop);
    await stack.conn
      .db!.collection('tokens')
      .updateOne({ shop }, { $set: { expires_at: new Date(Date.now() - 1000) } });
    // A second replica: its own TokenService (own in-process map), the same database and Shopify.
    const replica = new TokenService({
      repo: new TokensRepository(stack.conn),
      cipher: new TokenCipher(parseEncryptionKeys(TOKEN_KEYS)),
      shopify: stack.service.shopify,
      logger: createLogger('replica', 'silent'),
      refreshMarginMs: 5 * 60_000,
    });
    const refreshes = stack.shopify.oauth.stats.refreshes;
    const [a, b] = await Promise.all([
      stack.service.tokens.getAccessToken(shop),
      replica.getAccessToken(shop),
    ]);
    expect(stack.shopify.oauth.stats.refreshes).toBe(refreshes + 1);
    expect(a.accessToken).toBe(b.accessToken);
    expect(await stack.conn.db!.collection('token_refresh_locks').countDocuments({ shop })).toBe(0);
  });

  it('says not_found, with how to reconnect, for a shop without a token', async () => {
    await expect(stack.service.tokens.getAccessToken('nobody.myshopify.com')).rejects.toMatchObject(
      { kind: 'not_found', message: NOT_CONNECTED },
    );
  });

  it('says unavailable when Shopify fails the refresh, and keeps the tokens', async () => {
    const shop = 'flaky-shop.myshopify.com';
    await install(shop);
    await stack.conn
      .db!.collection('tokens')
      .updateOne({ shop }, { $set: { expires_at: new Date(0) } });
    stack.shopify.oauth.failTokenRequests(503);
    await expect(stack.service.tokens.getAccessToken(shop)).rejects.toMatchObject({
      kind: 'unavailable',
    });
    const reply = await stack.service.tokens.getAccessToken(shop);
    expect(stack.shopify.oauth.shopOfAccessToken(reply.accessToken)).toBe(shop);
  });

  it('keeps the tokens when Shopify refuses the client (a rotated secret), not only on 5xx', async () => {
    const shop = 'rotated-shop.myshopify.com';
    await install(shop);
    await stack.conn
      .db!.collection('tokens')
      .updateOne({ shop }, { $set: { expires_at: new Date(0) } });
    stack.shopify.oauth.rotateClientSecret('a-new-secret-this-replica-does-not-have');
    try {
      await expect(stack.service.tokens.getAccessToken(shop)).rejects.toMatchObject({
        kind: 'unavailable',
      });
      expect(await stack.conn.db!.collection('tokens').countDocuments({ shop })).toBe(1);
    } finally {
      stack.shopify.oauth.rotateClientSecret(API_SECRET);
    }
    const reply = await stack.service.tokens.getAccessToken(shop);
    expect(stack.shopify.oauth.shopOfAccessToken(reply.accessToken)).toBe(shop);
  });

  it('deletes the tokens when Shopify answers invalid_grant (the grant is gone)', async () => {
    const shop = 'revoked-shop.myshopify.com';
    await install(shop);
    await stack.conn
      .db!.collection('tokens')
      .updateOne({ shop }, { $set: { expires_at: new Date(0) } });
    stack.shopify.oauth.revoke(shop);
    await expect(stack.service.tokens.getAccessToken(shop)).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect(await stack.conn.db!.collection('tokens').countDocuments({ shop })).toBe(0);
  });
});
