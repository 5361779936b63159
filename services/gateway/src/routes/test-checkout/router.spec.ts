import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@ratesmith/kit';
import { errorHandler } from '../../http/errors';
import { testCheckoutRouter } from './router';

/**
 * The test checkout's call to the double, against a stand-in double: the
 * session's shop in the path, a time limit, and the double's failures in words.
 */
const SHOP = 'a-shop.myshopify.com';
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The gateway's route with the session middleware's result (the shop) already set. */
async function gateway(shopifyOrigin: string, timeoutMs = 5000): Promise<string> {
  const app = express();
  app.use(express.json());
  app.use((_req, res, next) => {
    Object.assign(res.locals, { shop: SHOP, requestId: 'r1', logger: createLogger('t', 'silent') });
    next();
  });
  app.use('/api/test-checkout', testCheckoutRouter({ shopifyOrigin, timeoutMs }));
  app.use(errorHandler);
  return listen(app);
}

const cart = {
  rate: {
    destination: { country: 'CA', province: 'ON' },
    currency: 'USD',
    items: [{ price: 2500, quantity: 1 }],
  },
};
const post = async (url: string, json: unknown) => {
  const res = await fetch(`${url}/api/test-checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => resolve(text));
  });

describe('POST /api/test-checkout and the double', () => {
  it("sends Shopify's rate request to the session's shop's checkout control", async () => {
    const asked: { url: string; body: unknown }[] = [];
    const double = await listen(async (req, res) => {
      asked.push({ url: req.url ?? '', body: JSON.parse(await bodyOf(req)) });
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          zone: { id: 'z', name: 'Canada' },
          carrierRates: [
            { service: 'Ratesmith', status: 200, body: { rates: [{ service_code: 'S' }] } },
          ],
        }),
      );
    });
    const { status, body } = await post(await gateway(double), cart);
    expect(status).toBe(200);
    expect(body).toMatchObject({ zone: 'Canada', asked: true, rates: [{ service_code: 'S' }] });
    expect(asked).toEqual([
      {
        url: `/__double/shops/${SHOP}/checkout`,
        body: {
          rate: {
            destination: { country: 'CA', province: 'ON', postal_code: '' },
            items: [
              {
                name: 'Test item 1',
                sku: '',
                quantity: 1,
                grams: 0,
                price: 2500,
                vendor: '',
                requires_shipping: true,
                taxable: true,
                fulfillment_service: 'manual',
                product_id: null,
                variant_id: null,
              },
            ],
            currency: 'USD',
            locale: 'en',
          },
        },
      },
    ]);
  });

  it('gives up after its time limit, in words', async () => {
    const silent = await listen(() => undefined);
    const { status, body } = await post(await gateway(silent, 200), cart);
    expect(status).toBe(503);
    expect(body.message).toBe('The test checkout got no answer within 0.2 s.');
  });

  it('says when the double refuses or cannot be reached', async () => {
    const refusing = await listen((_req, res) => {
      res.statusCode = 400;
      res.end(JSON.stringify({ status: false, message: 'rate.items.0.quantity: too big' }));
    });
    expect((await post(await gateway(refusing), cart)).body.message).toBe(
      'The local Shopify double refused the test checkout: rate.items.0.quantity: too big',
    );
    const nowhere = await post(await gateway('http://127.0.0.1:9'), cart);
    expect(nowhere.status).toBe(503);
    expect(nowhere.body.message).toBe(
      'The test checkout could not reach the local Shopify double.',
    );
  });

  it('says when the app was asked and its callback failed', async () => {
    const double = await listen((_req, res) => {
      res.end(
        JSON.stringify({
          zone: { id: 'z', name: 'Canada' },
          carrierRates: [{ service: 'Ratesmith', status: 401, body: 'Unauthorized' }],
        }),
      );
    });
    const { body } = await post(await gateway(double), cart);
    expect(body).toEqual({
      status: true,
      zone: 'Canada',
      asked: true,
      rates: [],
      message:
        'Checkout asked Ratesmith (zone Canada), and its callback failed with HTTP 401: checkout shows no rate of the app.',
    });
  });
});
