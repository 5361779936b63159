import { AppError } from '@ratesmith/kit';
import { startAuthStack, type AuthStack } from './harness';

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

describe('GetAccessToken', () => {
  it('hands out the token Shopify issued, stored only sealed', async () => {
    await install(SHOP);
    const reply = await stack.auth.call('getAccessToken', { shop: SHOP });
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
    const before = await stack.auth.call('getAccessToken', { shop });
    stack.shopify.oauth.expireAccessTokens(shop);
    await stack.conn
      .db!.collection('tokens')
      .updateOne({ shop }, { $set: { expires_at: new Date(Date.now() - 1000) } });
    const refreshes = stack.shopify.oauth.stats.refreshes;
    const [a, b] = await Promise.all([
      stack.auth.call('getAccessToken', { shop }),
      stack.auth.call('getAccessToken', { shop }),
    ]);
    expect(stack.shopify.oauth.stats.refreshes).toBe(refreshes + 1);
    expect(a.accessToken).toBe(b.accessToken);
    expect(a.accessToken).not.toBe(before.accessToken);
    expect(stack.shopify.oauth.shopOfAccessToken(a.accessToken)).toBe(shop);
    // The refreshed token is stored: the next call does not refresh again.
    await stack.auth.call('getAccessToken', { shop });
    expect(stack.shopify.oauth.stats.refreshes).toBe(refreshes + 1);
  });

  it('says not_found for a shop without a token and invalid_data for a bad domain', async () => {
    await expect(
      stack.auth.call('getAccessToken', { shop: 'nobody.myshopify.com' }),
    ).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(stack.auth.call('getAccessToken', { shop: 'evil.com' })).rejects.toBeInstanceOf(
      AppError,
    );
    await expect(stack.auth.call('getAccessToken', { shop: 'evil.com' })).rejects.toMatchObject({
      kind: 'invalid_data',
    });
  });

  it('says unavailable when Shopify fails the refresh, and keeps the tokens', async () => {
    const shop = 'flaky-shop.myshopify.com';
    await install(shop);
    await stack.conn
      .db!.collection('tokens')
      .updateOne({ shop }, { $set: { expires_at: new Date(0) } });
    stack.shopify.oauth.failTokenRequests(503);
    await expect(stack.auth.call('getAccessToken', { shop })).rejects.toMatchObject({
      kind: 'unavailable',
    });
    const reply = await stack.auth.call('getAccessToken', { shop });
    expect(stack.shopify.oauth.shopOfAccessToken(reply.accessToken)).toBe(shop);
  });
});
