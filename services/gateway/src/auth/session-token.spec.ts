import { createHmac } from 'node:crypto';
import { mintSessionToken, SessionTokenVerifier } from './session-token';
import { gatewayShopify } from './shopify';

const apiKey = 'test-key';
const apiSecret = 'test-secret';
const shop = 'shop-a.myshopify.com';
const verifier = new SessionTokenVerifier(
  gatewayShopify({ apiKey, apiSecret, appUrl: 'https://app.example.com' }),
);
const now = () => Math.floor(Date.now() / 1000);
const mint = (extra: Partial<Parameters<typeof mintSessionToken>[0]> = {}) =>
  mintSessionToken({ shop, apiKey, apiSecret, ...extra });

function resign(
  token: string,
  transform: (payload: Record<string, unknown>) => Record<string, unknown>,
): string {
  const [header, payload] = token.split('.');
  const edited = Buffer.from(
    JSON.stringify(transform(JSON.parse(Buffer.from(payload!, 'base64url').toString()))),
  ).toString('base64url');
  return `${header}.${edited}.${token.split('.')[2]}`;
}

describe('SessionTokenVerifier', () => {
  it('accepts a token shaped like the admin sends and returns its shop', async () => {
    await expect(verifier.sessionOf(mint())).resolves.toEqual({ shop, user: '1' });
  });

  it('allows 10 seconds of clock skew', async () => {
    await expect(verifier.sessionOf(mint({ overrides: { exp: now() - 5 } }))).resolves.toEqual({
      shop,
      user: '1',
    });
  });

  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const unsignedNone = () => {
    const parts = mint().split('.');
    return `${b64({ alg: 'none', typ: 'JWT' })}.${parts[1]}.`;
  };
  const hs512 = () => {
    const parts = mint().split('.');
    const unsigned = `${b64({ alg: 'HS512', typ: 'JWT' })}.${parts[1]}`;
    return `${unsigned}.${createHmac('sha512', apiSecret).update(unsigned).digest('base64url')}`;
  };

  it.each([
    ['alg none', unsignedNone],
    ['HS512 instead of HS256', hs512],
    ['a wrong key', () => mintSessionToken({ shop, apiKey, apiSecret: 'other-secret' })],
    [
      'an edited payload',
      () => resign(mint(), (p) => ({ ...p, dest: 'https://shop-b.myshopify.com' })),
    ],
    ['expired past the skew', () => mint({ overrides: { exp: now() - 30 } })],
    ['nbf in the future', () => mint({ overrides: { nbf: now() + 60 } })],
    ['a wrong audience', () => mint({ overrides: { aud: 'someone-else' } })],
    [
      'iss of another shop',
      () => mint({ overrides: { iss: 'https://shop-b.myshopify.com/admin' } }),
    ],
    [
      'dest that is not a shop domain',
      () => mint({ overrides: { dest: 'https://evil.example.com' } }),
    ],
    [
      'dest with a path',
      () => mint({ overrides: { dest: `https://${shop}/x`, iss: `https://${shop}/admin` } }),
    ],
    ['a missing jti', () => mint({ overrides: { jti: undefined } })],
    ['a missing exp', () => mint({ overrides: { exp: undefined } })],
    ['a missing sid', () => mint({ overrides: { sid: undefined } })],
    ['malformed segments', () => 'not.a.jwt'],
    ['an empty string', () => ''],
  ])('refuses %s', async (_label, token) => {
    await expect(verifier.sessionOf(token())).resolves.toBeUndefined();
  });
});
