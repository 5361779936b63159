import { SHOP_A, SHOP_B, startStack, type Stack } from './harness';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ API_RATE_LIMIT: '5' });
});
afterAll(() => stack?.stop());

it('answers 429 with Retry-After once a shop passes its limit, without touching other shops', async () => {
  const results = [];
  for (let i = 0; i < 6; i++) results.push(await stack.api('/api/global-rules'));
  expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
  const refused = results[5]!;
  expect(refused.body).toEqual({
    status: false,
    message: 'Too many requests. Please wait a moment and try again.',
  });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

  expect((await stack.api('/api/global-rules', { token: stack.token(SHOP_B) })).status).toBe(200);
  // A forged client address buys no extra quota: the key is the verified shop.
  const forged = await stack.api(`/api/global-rules?shop=${SHOP_A}`, {
    headers: { 'x-forwarded-for': '203.0.113.9' },
  });
  expect(forged.status).toBe(429);
  // The admin's web vitals count against the same quota.
  const vitals = await stack.api('/api/vitals', {
    method: 'POST',
    json: { page: '/', navigation: 'navigate', metrics: [{ name: 'LCP', value: 900 }] },
  });
  expect(vitals.status).toBe(429);
});
