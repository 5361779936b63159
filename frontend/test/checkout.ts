import { MongoClient } from 'mongodb';
import { DEMO_SHOP, type RunningApp } from './harness';

/** Carrier callbacks of the demo shop for the browser tests, straight to the running engine. */

/** The demo shop's carrier-callback key, as the auth service stored it. */
export async function rateKeyOf(app: RunningApp): Promise<string> {
  const uri = /FerretDB \(MongoDB wire protocol\) at (\S+)/.exec(app.output())?.[1];
  if (!uri) throw new Error('the stack did not print its FerretDB address');
  const client = await MongoClient.connect(uri);
  try {
    const shop = await client.db('ratesmith_auth').collection('shops').findOne({ shop: DEMO_SHOP });
    return shop!.rate_key as string;
  } finally {
    await client.close();
  }
}

/** One checkout callback to Canada (the demo stack's engine takes unsigned ones); its rates. */
export async function checkout(app: RunningApp, rateKey: string) {
  // The engine listens 1,000 ports above the app (tools/devstack/src/start.ts).
  const engine = `http://localhost:${Number(new URL(app.url).port) + 1000}`;
  const res = await fetch(`${engine}/carrier/rates/${rateKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-shop-domain': DEMO_SHOP },
    body: JSON.stringify({
      rate: {
        destination: { country: 'CA', postal_code: 'K1M1M4', province: 'ON', name: 'Jo Doe' },
        items: [
          {
            name: 'Tee',
            quantity: 2,
            price: 2500,
            grams: 300,
            requires_shipping: true,
            product_id: 7,
          },
        ],
        currency: 'USD',
      },
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { rates: { service_code: string; total_price: string }[] }).rates;
}
