import { MongoClient } from 'mongodb';
import type { RunningApp } from './harness';

/** Carrier callbacks of a test file's shop for the browser tests, straight to the running engine. */

/** The carrier-callback key of the app's shop, as the auth service stored it. */
export async function rateKeyOf(app: RunningApp): Promise<string> {
  const client = await MongoClient.connect(app.mongoUri);
  try {
    const shop = await client.db('ratesmith_auth').collection('shops').findOne({ shop: app.shop });
    if (!shop) throw new Error(`${app.shop} is not installed`);
    return shop.rate_key as string;
  } finally {
    await client.close();
  }
}

/** Where a checkout ships, as Shopify's callback says it. */
export interface CheckoutDestination {
  country: string;
  postal_code: string;
  province: string;
}

export const OTTAWA: CheckoutDestination = { country: 'CA', postal_code: 'K1M1M4', province: 'ON' };

/**
 * One checkout callback of the app's shop (the demo stack's engine takes unsigned ones);
 * its rates. By default two tees at $25.00 to Ottawa; `cart` changes the destination or
 * the tees' price in cents.
 */
export async function checkout(
  app: RunningApp,
  rateKey: string,
  cart: { destination?: CheckoutDestination; price?: number } = {},
) {
  // The engine listens 1,000 ports above the app (tools/devstack/src/start.ts).
  const engine = `http://localhost:${Number(new URL(app.url).port) + 1000}`;
  const res = await fetch(`${engine}/carrier/rates/${rateKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-shop-domain': app.shop },
    body: JSON.stringify({
      rate: {
        destination: { ...(cart.destination ?? OTTAWA), name: 'Jo Doe' },
        items: [
          {
            name: 'Tee',
            quantity: 2,
            price: cart.price ?? 2500,
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
