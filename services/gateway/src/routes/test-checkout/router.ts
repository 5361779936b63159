import type { RateJson, TestCheckoutReply, TestCheckoutRequest } from '@ratesmith/contracts';
import { AppError } from '@ratesmith/kit';
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { shopOf } from '../../http/context';
import { parseInput, type SchemaAccepts } from '../../http/validate';

/**
 * The test checkout's cart: the preview's, bounded for a demo (a sample cart
 * keeps 50 lines, frontend/src/preview/cart-link.ts) and within what the
 * double's checkout control takes (tools/shopify-double/src/controls.ts).
 * Unknown fields, a `shop` among them, are dropped: the shop is the session's.
 */
const id = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
export const testCheckoutBody = z.object({
  rate: z.object({
    destination: z.object({
      country: z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter country code such as CA'),
      province: z.string().max(10).optional(),
      postal_code: z.string().max(20).optional(),
    }),
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter currency code such as USD'),
    items: z
      .array(
        z.object({
          price: z.number().int().nonnegative().max(1_000_000_000),
          quantity: z.number().int().min(1).max(10_000),
          grams: z.number().int().nonnegative().max(10_000_000).optional(),
          product_id: id.optional(),
          variant_id: id.optional(),
          requires_shipping: z.boolean().optional(),
          name: z.string().max(255).optional(),
        }),
      )
      .min(1, 'must hold at least one line')
      .max(50, 'must hold at most 50 lines'),
  }),
});

/** What the admin sends passes the schema. */
export type AdminTestCheckoutRequest = SchemaAccepts<typeof testCheckoutBody, TestCheckoutRequest>;

/** The double's answer (tools/shopify-double/src/checkout.ts, CheckoutRates): the parts read. */
interface CheckoutRates {
  zone: { name: string } | null;
  carrierRates: { service: string; status: number; body: unknown }[];
}

/**
 * Demo mode only (app.ts mounts it only then, so it is 404 otherwise): sends
 * the cart through the Shopify double's checkout, which calls the app's
 * carrier callback signed as Shopify signs it, so the callback is sampled
 * into Recent checkouts and counted in analytics like a real one.
 */
export function testCheckoutRouter(options: { shopifyOrigin: string; timeoutMs: number }): Router {
  const router = Router();
  const send: RequestHandler = async (req, res) => {
    const { rate } = parseInput(testCheckoutBody, req.body);
    const shop = shopOf(res);
    const request = {
      rate: {
        destination: {
          country: rate.destination.country,
          province: rate.destination.province || null,
          postal_code: rate.destination.postal_code ?? '',
        },
        // Shopify's item fields (docs/rates.md, "The request").
        items: rate.items.map((item, index) => ({
          name: item.name ?? `Test item ${index + 1}`,
          sku: '',
          quantity: item.quantity,
          grams: item.grams ?? 0,
          price: item.price,
          vendor: '',
          requires_shipping: item.requires_shipping ?? true,
          taxable: true,
          fulfillment_service: 'manual',
          product_id: item.product_id ?? null,
          variant_id: item.variant_id ?? null,
        })),
        currency: rate.currency,
        locale: 'en',
      },
    };
    const answer = await callDouble(options, shop, request);
    res.json(replyOf(answer, Boolean(request.rate.destination.province)));
  };
  router.post('/', send);
  return router;
}

async function callDouble(
  options: { shopifyOrigin: string; timeoutMs: number },
  shop: string,
  request: unknown,
): Promise<CheckoutRates> {
  const url = new URL(
    `/__double/shops/${encodeURIComponent(shop)}/checkout`,
    options.shopifyOrigin,
  );
  let status: number;
  let body: (CheckoutRates & { message?: string }) | null;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    status = res.status;
    // The time limit covers the answer's body too.
    const text = await res.text();
    body = parsedOrNull(text) as typeof body;
  } catch (err) {
    // Node's fetch rejects with a DOMException named TimeoutError when the signal times out.
    const late = (err as { name?: unknown } | null)?.name === 'TimeoutError';
    throw new AppError(
      'unavailable',
      late
        ? `The test checkout got no answer within ${secondsOf(options.timeoutMs)} s.`
        : 'The test checkout could not reach the local Shopify double.',
      [],
      { cause: err },
    );
  }
  if (status !== 200 || !body) {
    throw new AppError(
      'unavailable',
      `The local Shopify double refused the test checkout${body?.message ? `: ${body.message}` : '.'}`,
    );
  }
  return body;
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Milliseconds as seconds in words: 12000 -> "12", 200 -> "0.2". */
const secondsOf = (ms: number) => (ms / 1000).toLocaleString('en', { maximumFractionDigits: 1 });

/** The app's part of checkout's answer, in words. */
function replyOf(answer: CheckoutRates, withProvince: boolean): TestCheckoutReply {
  if (!answer.zone) {
    // A zone that lists provinces holds an address only with one (tools/shopify-double/README.md).
    const hint = withProvince
      ? ''
      : ' A zone of a country with states or provinces holds an address only with one: choose it.';
    return {
      status: true,
      zone: null,
      asked: false,
      rates: [],
      message: `The shop ships to no shipping zone holding this address, so checkout asked no carrier service.${hint}`,
    };
  }
  const zone = answer.zone.name;
  // The double keeps only this app's carrier services per shop: any answer is the app's.
  const callback = answer.carrierRates[0];
  if (!callback) {
    return {
      status: true,
      zone,
      asked: false,
      rates: [],
      message: `Ratesmith takes part in no rate of the zone ${zone}, so checkout did not ask it. Add it to that zone under Shipping zones.`,
    };
  }
  const rates = (callback.body as { rates?: RateJson[] } | null)?.rates;
  if (callback.status !== 200 || !Array.isArray(rates)) {
    return {
      status: true,
      zone,
      asked: true,
      rates: [],
      message: `Checkout asked Ratesmith (zone ${zone}), and its callback failed with HTTP ${callback.status}: checkout shows no rate of the app.`,
    };
  }
  return {
    status: true,
    zone,
    asked: true,
    rates,
    message:
      rates.length === 0
        ? `Checkout asked Ratesmith (zone ${zone}) and got no rate: no rule matched, or a rule blocked shipping.`
        : `Checkout asked Ratesmith (zone ${zone}) and got ${rates.length === 1 ? '1 rate' : `${rates.length} rates`}.`,
  };
}
