import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { shopifyLibrary } from '@ratesmith/kit/shopify';
import fc from 'fast-check';
import { signatureValid } from '../../../rate-engine/src/carrier/server';

/**
 * The rate engine checks carrier callback signatures with its own
 * constant-time code (no per-request library setup on the checkout path).
 * Shopify's library has the same check for signed app requests (Flow's
 * validate: base64 HMAC-SHA256 of the raw body with the app secret, in
 * X-Shopify-Hmac-Sha256). This property holds them to the same verdict on
 * any body and any header: genuine, made with another secret, tampered,
 * hex instead of base64, truncated, padded or garbage.
 */
const SECRET = 'carrier-secret';
const OTHER = 'another-secret';
const library = shopifyLibrary({
  apiKey: 'key',
  apiSecret: SECRET,
  appUrl: 'https://app.example.com',
});

const base64 = (body: string, secret: string) =>
  createHmac('sha256', secret).update(body).digest('base64');

const header = (body: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant(base64(body, SECRET)),
    fc.constant(base64(body, OTHER)),
    fc.constant(base64(`${body} `, SECRET)),
    fc.constant(createHmac('sha256', SECRET).update(body).digest('hex')),
    fc.constant(base64(body, SECRET).slice(0, -1)),
    fc.constant(`${base64(body, SECRET)}=`),
    fc.constant(` ${base64(body, SECRET)}`),
    fc.constant(base64(body, SECRET).toLowerCase()),
    fc.string({ maxLength: 64 }).filter((s) => s.trim() !== ''),
  );

async function libraryVerdict(body: string, hmac: string): Promise<boolean> {
  const rawRequest = {
    method: 'POST',
    url: '/carrier/rates/key',
    headers: { 'content-type': 'application/json', 'x-shopify-hmac-sha256': hmac },
  } as unknown as IncomingMessage;
  return (await library.flow.validate({ rawBody: body, rawRequest })).valid;
}

describe("the carrier signature check agrees with Shopify's library", () => {
  it('gives the same verdict for any body and header', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({ minLength: 1, maxLength: 400, unit: 'grapheme' })
          .chain((body) => fc.tuple(fc.constant(body), header(body))),
        async ([body, hmac]) => {
          const ours = signatureValid(Buffer.from(body), hmac, SECRET);
          expect({ body, hmac, ours }).toEqual({
            body,
            hmac,
            ours: await libraryVerdict(body, hmac),
          });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('accepts a genuine signature and refuses one made with another secret (the property can fail)', async () => {
    const body = JSON.stringify({ rate: { destination: { country: 'CA' } } });
    expect(signatureValid(Buffer.from(body), base64(body, SECRET), SECRET)).toBe(true);
    expect(await libraryVerdict(body, base64(body, SECRET))).toBe(true);
    expect(signatureValid(Buffer.from(body), base64(body, OTHER), SECRET)).toBe(false);
    expect(await libraryVerdict(body, base64(body, OTHER))).toBe(false);
  });
});
