// Telemetry first: the gateway's histograms are made on its meter provider.
import { scrapeMetrics, stopTelemetry } from './in-memory-telemetry';
import type { WebVitalsReport } from '@ratesmith/contracts';
import { metricSamples, type MetricSample } from '@ratesmith/devstack';
import { VITALS_BODY_LIMIT } from '../src/http/json-body';
import { SHOP_A, SHOP_B, startStack, type Stack } from './harness';

/**
 * POST /api/vitals through the whole /api chain: a merchant's page view is
 * recorded into the gateway's histograms as a scrape of /metrics reads them
 * (by page and navigation, never by shop), and what is not a page view of a
 * session is refused and recorded nowhere.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
  await stopTelemetry();
});

const EDITOR: WebVitalsReport = {
  page: '/edit-global-rule/:id',
  navigation: 'navigate',
  metrics: [
    { name: 'LCP', value: 1800 },
    { name: 'CLS', value: 0.12 },
    { name: 'INP', value: 240 },
  ],
};

/** The web-vitals samples of a scrape of /metrics. */
const vitalsSamples = async () => metricSamples(await scrapeMetrics(), 'ratesmith_web_vitals_');

/** The value of the editor page's series `name` (with `le` for a bucket). */
const editor = (samples: MetricSample[], name: string, le?: string) =>
  samples.find(
    (s) =>
      s.name === `ratesmith_web_vitals_${name}` &&
      s.labels.page === EDITOR.page &&
      s.labels.navigation === 'navigate' &&
      s.labels.le === le,
  )?.value;

const post = (json: unknown, init: { token?: string | null } = {}) =>
  stack.api('/api/vitals', { method: 'POST', json, ...init });

it('records a page view in the histograms of its page, in the units and buckets of the bars, and no shop', async () => {
  const sent = await post(EDITOR);
  expect(sent).toMatchObject({ status: 204, body: '' });
  let samples = await vitalsSamples();
  expect({
    lcp: [editor(samples, 'lcp_bucket', '1.5'), editor(samples, 'lcp_bucket', '2')],
    lcpSeconds: editor(samples, 'lcp_sum'),
    cls: [editor(samples, 'cls_bucket', '0.1'), editor(samples, 'cls_bucket', '0.15')],
    inp: [editor(samples, 'inp_bucket', '200'), editor(samples, 'inp_bucket', '250')],
    inpCount: editor(samples, 'inp_count'),
  }).toEqual({ lcp: [0, 1], lcpSeconds: 1.8, cls: [0, 1], inp: [0, 1], inpCount: 1 });

  // Another shop's page view of the same page lands in the same series.
  expect((await post(EDITOR, { token: stack.token(SHOP_B) })).status).toBe(204);
  samples = await vitalsSamples();
  expect(editor(samples, 'lcp_count')).toBe(2);
  const labels = new Set(samples.flatMap((s) => Object.keys(s.labels)));
  expect([...labels].sort()).toEqual(['le', 'navigation', 'otel_scope_name', 'page']);
  expect(JSON.stringify(samples)).not.toContain(SHOP_A);
});

it('refuses a call without a valid session, and bad, unknown or oversized reports, recording none', async () => {
  const before = await vitalsSamples();
  expect((await post(EDITOR, { token: null })).status).toBe(401);
  expect((await post(EDITOR, { token: stack.token(SHOP_A, { aud: 'another-app' }) })).status).toBe(
    401,
  );

  const unknownPage = await post({ ...EDITOR, page: '/edit-global-rule/64f1c0ffee1234567890abcd' });
  expect(unknownPage).toMatchObject({
    status: 400,
    body: {
      status: false,
      message: 'The request is not valid.',
      errors: ["page: must be one of the admin's route patterns (such as /edit-global-rule/:id)"],
    },
  });
  for (const bad of [
    {
      ...EDITOR,
      metrics: [
        { name: 'LCP', value: 1800 },
        { name: 'TTFB', value: 90 },
      ],
    },
    { ...EDITOR, metrics: [{ name: 'INP', value: -5 }] },
    { ...EDITOR, metrics: [{ name: 'LCP', value: 1e9 }] },
    { ...EDITOR, metrics: [] },
  ])
    expect((await post(bad)).status).toBe(400);

  const limit = parseInt(VITALS_BODY_LIMIT, 10) * 1024;
  const oversize = await post({ ...EDITOR, padding: 'x'.repeat(limit) });
  expect(oversize).toMatchObject({ status: 413, body: { message: 'The request is too large.' } });
  const notJson = await stack.api('/api/vitals', {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify(EDITOR),
  });
  expect(notJson.status).toBe(415);

  expect(await vitalsSamples()).toEqual(before);
});
