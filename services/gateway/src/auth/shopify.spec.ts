import { createHmac } from 'node:crypto';
import { signQuery } from '@ratesmith/shopify-double';
import { mintSessionToken } from './session-token';
import { adminQuerySigned, decodeSessionToken, gatewayShopify } from './shopify';

const secret = 'hush';
const shopify = gatewayShopify({ apiKey: 'key', apiSecret: secret, appUrl: 'https://app.test' });
const now = () => Math.floor(Date.now() / 1000);
const signed = (params: Record<string, string>, key = secret) => ({
  ...params,
  hmac: signQuery(params, key),
});
const base = () => ({
  shop: 'a-shop.myshopify.com',
  host: 'YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvYQ',
  timestamp: String(now()),
});

describe('adminQuerySigned (S6)', () => {
  it('accepts a link Shopify signed', async () => {
    expect(await adminQuerySigned(shopify, signed(base()))).toBe(true);
  });

  it('matches the documented algorithm: sorted k=v pairs joined with &, hex', async () => {
    const b = base();
    const message = `host=${b.host}&shop=${b.shop}&timestamp=${b.timestamp}`;
    const hmac = createHmac('sha256', secret).update(message).digest('hex');
    expect(await adminQuerySigned(shopify, { ...b, hmac })).toBe(true);
  });

  it('encodes spaces as %20 like Shopify', async () => {
    expect(await adminQuerySigned(shopify, signed({ ...base(), locale: 'en US' }))).toBe(true);
  });

  it('accepts a timestamp 89 s old (the library allows 90 s)', async () => {
    expect(
      await adminQuerySigned(shopify, signed({ ...base(), timestamp: String(now() - 89) })),
    ).toBe(true);
  });

  it.each([
    ['a changed parameter', () => ({ ...signed(base()), shop: 'b-shop.myshopify.com' })],
    ['another secret', () => signed(base(), 'other')],
    ['a non-hex hmac', () => ({ ...base(), hmac: 'z'.repeat(64) })],
    ['a short hmac', () => ({ ...base(), hmac: 'ab' })],
    [
      'an upper-cased hmac',
      () => {
        const s = signed(base());
        return { ...s, hmac: s.hmac.toUpperCase() };
      },
    ],
    ['no hmac', () => base()],
    ['no timestamp', () => signed({ shop: 'a-shop.myshopify.com', host: 'x' })],
    ['a timestamp 91 s old', () => signed({ ...base(), timestamp: String(now() - 91) })],
    ['a timestamp 91 s ahead', () => signed({ ...base(), timestamp: String(now() + 91) })],
    ['a non-integer timestamp', () => signed({ ...base(), timestamp: '1.5' })],
  ])('refuses %s', async (_label, params) => {
    expect(await adminQuerySigned(shopify, params() as Record<string, string>)).toBe(false);
  });
});

describe('a secret rotation: the previous secret is still accepted, nothing else', () => {
  const rotating = gatewayShopify({
    apiKey: 'key',
    apiSecret: 'new-secret',
    previousApiSecret: secret,
    appUrl: 'https://app.test',
  });

  it('accepts admin links signed with the new or the previous secret', async () => {
    expect(await adminQuerySigned(rotating, signed(base(), 'new-secret'))).toBe(true);
    expect(await adminQuerySigned(rotating, signed(base(), secret))).toBe(true);
    expect(await adminQuerySigned(rotating, signed(base(), 'third'))).toBe(false);
    expect(await adminQuerySigned(shopify, signed(base(), 'new-secret'))).toBe(false);
  });

  it('accepts session tokens signed with either, and only those', async () => {
    const token = (apiSecret: string) =>
      mintSessionToken({ shop: 'a-shop.myshopify.com', apiKey: 'key', apiSecret });
    expect((await decodeSessionToken(rotating, token('new-secret'))).dest).toBe(
      'https://a-shop.myshopify.com',
    );
    expect((await decodeSessionToken(rotating, token(secret))).dest).toBe(
      'https://a-shop.myshopify.com',
    );
    await expect(decodeSessionToken(rotating, token('third'))).rejects.toThrow();
  });
});
