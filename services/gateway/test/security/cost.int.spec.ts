import { randomBytes } from 'node:crypto';
import { DEMO_CATALOG } from '@ratesmith/shopify-double';
import { SHOP_A, startStack, type Stack } from '../harness';
import { cart, raw, rateKeyOf, seedShop, signBody } from './helpers';

/**
 * S9: what the worst unauthenticated requests cost the server, against a
 * normal authenticated call. Each is timed end to end from the client (the
 * upload included), REPEAT times; the medians are printed as a table and each
 * must stay within FACTOR × the normal call's median, with the status the
 * README promises.
 */

const REPEAT = 15;
const FACTOR = 5;
const BODY_LIMIT = 100 * 1024;

let stack: Stack;
let rateKey: string;
const figures: { name: string; status: string; medianMs: number }[] = [];

beforeAll(async () => {
  stack = await startStack(
    { PUBLIC_RATE_LIMIT: '0', API_BODY_LIMIT: `${BODY_LIMIT / 1024}kb` },
    {},
    {},
    {},
    { CARRIER_RATE_LIMIT: 0 },
  );
  await seedShop(stack, SHOP_A, 'Cost', DEMO_CATALOG[0]!.id);
  rateKey = await rateKeyOf(stack, SHOP_A);
}, 60_000);
afterAll(async () => {
  const normal = figures.find((f) => f.name.startsWith('normal'))?.medianMs ?? NaN;
  const lines = figures.map(
    (f) =>
      `${f.name.padEnd(62)} ${f.status.padEnd(8)} ${f.medianMs.toFixed(2).padStart(8)} ms  ${(f.medianMs / normal).toFixed(2)}×`,
  );
  process.stdout.write(`S9 cost (median of ${REPEAT}):\n${lines.join('\n')}\n`);
  await stack?.stop();
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs `call` REPEAT times (after one warm-up), records the median and the statuses seen. */
async function measure(
  name: string,
  call: () => Promise<{ status: number; ms: number }>,
): Promise<{ medianMs: number; statuses: number[] }> {
  await call();
  const times: number[] = [];
  const statuses = new Set<number>();
  for (let i = 0; i < REPEAT; i++) {
    const { status, ms } = await call();
    times.push(ms);
    statuses.add(status);
  }
  const medianMs = median(times);
  figures.push({ name, status: [...statuses].join('/'), medianMs });
  return { medianMs, statuses: [...statuses] };
}

let normalMs = 0;
const json = { 'content-type': 'application/json' };
const deepJson = (bytes: number) => {
  const depth = Math.floor(bytes / 2);
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
};

describe('S9: the cost of the worst requests', () => {
  it('S9: normal: an authenticated GET /api/global-rules', async () => {
    const { medianMs, statuses } = await measure(
      'normal: authenticated GET /api/global-rules',
      () =>
        raw(`${stack.baseUrl}/api/global-rules`, {
          headers: { authorization: `Bearer ${stack.token(SHOP_A)}` },
        }),
    );
    expect(statuses).toEqual([200]);
    normalMs = medianMs;
  });

  it.each([
    [
      '1 MB of nested JSON on /api without a token',
      [401],
      () =>
        raw(`${stack.baseUrl}/api/global-rules`, {
          method: 'POST',
          headers: json,
          body: deepJson(1024 * 1024),
        }),
    ],
    [
      'a body at the size limit on /api without a token',
      [401],
      () =>
        raw(`${stack.baseUrl}/api/settings`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ carrier_name: 'x'.repeat(BODY_LIMIT - 40) }),
        }),
    ],
    [
      'a body over the size limit on /api without a token',
      [401, 413],
      () =>
        raw(`${stack.baseUrl}/api/settings`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ carrier_name: 'x'.repeat(BODY_LIMIT * 4) }),
        }),
    ],
    [
      'nesting depth 5,000 (10 KB) on /api with a token',
      [400],
      () =>
        raw(`${stack.baseUrl}/api/global-rules`, {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${stack.token(SHOP_A)}` },
          body: deepJson(10_000),
        }),
    ],
    [
      'a 10,000-character email on /api/install',
      // Over the install calls' 8 KB body limit: 413 before any parsing.
      [400, 413],
      () =>
        raw(`${stack.baseUrl}/api/install`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({
            shop: 'cost.myshopify.com',
            email: `${'a'.repeat(9990)}@example.com`,
          }),
        }),
    ],
    [
      'an 8 KB query string on /auth/callback',
      [400, 401],
      () =>
        raw(
          `${stack.baseUrl}/auth/callback?shop=cost.myshopify.com&code=c&state=s&timestamp=1&hmac=${'a'.repeat(64)}&x=${'y'.repeat(8000)}`,
        ),
    ],
    [
      'a 15 KB query string of 2,000 parameters on /auth/callback',
      [400, 401, 414, 431],
      () =>
        raw(
          `${stack.baseUrl}/auth/callback?${Array.from({ length: 2000 }, (_, i) => `p${i}=1`).join('&')}`,
        ),
    ],
    [
      'a 1 MB webhook body',
      [400, 401, 413],
      () =>
        raw(`${stack.baseUrl}/webhooks/shop/redact`, {
          method: 'POST',
          headers: { ...json, 'x-shopify-hmac-sha256': 'AAAA', 'x-shopify-topic': 'shop/redact' },
          body: deepJson(1024 * 1024),
        }),
    ],
  ] as const)('S9: %s stays within 5× the normal call', async (name, expected, call) => {
    const { medianMs, statuses } = await measure(name, call);
    expect(statuses.every((s) => (expected as readonly number[]).includes(s))).toBe(true);
    expect(normalMs).toBeGreaterThan(0);
    expect(medianMs).toBeLessThanOrEqual(FACTOR * normalMs);
  });

  it('S9: 10,000 random rate keys on the carrier callback: each a 404, each cheap', async () => {
    const body = JSON.stringify({ rate: cart() });
    const headers = { ...json, 'x-shopify-hmac-sha256': signBody(body) };
    const times: number[] = [];
    const statuses = new Map<number, number>();
    const keys = Array.from({ length: 10_000 }, () => randomBytes(16).toString('base64url'));
    const started = performance.now();
    // Ten at a time, as a scanning client would.
    for (let i = 0; i < keys.length; i += 10) {
      const batch = await Promise.all(
        keys
          .slice(i, i + 10)
          .map((key) =>
            raw(`${stack.carrierUrl}/carrier/rates/${key}`, { method: 'POST', headers, body }),
          ),
      );
      for (const r of batch) {
        times.push(r.ms);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    }
    const total = performance.now() - started;
    figures.push({
      name: `10,000 random rate keys (${Math.round(total)} ms in all)`,
      status: [...statuses.keys()].join('/'),
      medianMs: median(times),
    });
    expect([...statuses.entries()]).toEqual([[404, 10_000]]);
    expect(median(times)).toBeLessThanOrEqual(FACTOR * normalMs);
    // The real key still answers.
    const real = await raw(`${stack.carrierUrl}/carrier/rates/${rateKey}`, {
      method: 'POST',
      headers,
      body,
    });
    expect(real.status).toBe(200);
  }, 120_000);
});
