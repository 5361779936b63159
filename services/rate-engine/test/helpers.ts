import { createHmac, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { rateEngineV1 } from '@ratesmith/contracts';
import { repoRoot } from '@ratesmith/devstack';

export const SECRET = 'test-app-secret';

export const newRateKey = () => randomBytes(16).toString('hex');

export const sign = (body: string, secret = SECRET) =>
  createHmac('sha256', secret).update(body).digest('base64');

/** POSTs a rate request to the carrier callback, signed unless `signature` says otherwise. */
export async function callCarrier(
  baseUrl: string,
  rateKey: string,
  body: unknown,
  options: { signature?: string | null } = {},
): Promise<{ status: number; text: string; json: any }> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signature = options.signature === undefined ? sign(raw) : options.signature;
  if (signature !== null) headers['x-shopify-hmac-sha256'] = signature;
  const res = await fetch(`${baseUrl}/carrier/rates/${rateKey}`, {
    method: 'POST',
    headers,
    body: raw,
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

/** A rate request body as the preview RPC's message; `orderedAt` its order time (else now). */
export function previewRequest(
  shop: string,
  body: { rate: Record<string, any> },
  orderedAt?: string,
) {
  const rate = body.rate;
  return {
    shop,
    ...(orderedAt === undefined ? {} : { orderedAt }),
    destinationCountry: rate.destination?.country ?? '',
    destinationProvince: rate.destination?.province ?? '',
    destinationPostalCode: rate.destination?.postal_code ?? '',
    currency: rate.currency,
    // Unchecked on purpose: the engine's own checks are what the specs try.
    lines: (rate.items as Record<string, any>[]).map((item) => ({
      price: item.price,
      quantity: item.quantity,
      grams: item.grams ?? 0,
      productId: item.product_id === undefined ? '' : String(item.product_id),
      variantId: item.variant_id === undefined ? '' : String(item.variant_id),
      noShipping: item.requires_shipping === false,
      vendor: item.vendor ?? '',
      sku: item.sku ?? '',
    })),
  } satisfies MessageInitShape<typeof rateEngineV1.PreviewRatesRequestSchema>;
}

/** The preview's protobuf rates in Shopify's JSON shape. */
export function ratesJson(rates: rateEngineV1.Rate[]) {
  return rates.map((r) => ({
    service_name: r.serviceName,
    service_code: r.serviceCode,
    total_price: r.totalPrice,
    description: r.description,
    currency: r.currency,
    // Shopify's shape: a rate without a window has neither key.
    ...(r.minDeliveryDate === undefined
      ? {}
      : { min_delivery_date: r.minDeliveryDate, max_delivery_date: r.maxDeliveryDate }),
  }));
}

/** The preview's protobuf trace in the JSON shape of the quote command: the gateway's own mapping. */
export { traceJson } from '../../gateway/src/routes/rate-preview/handlers';

/** Runs `npm run -s quote` (the built command) with `input` on stdin. */
export function runQuoteCommand(
  input: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Exactly the command of docs/rates.md.
    const child = spawn('npm', ['run', '-s', 'quote', '--workspace', 'services/rate-engine'], {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
}
