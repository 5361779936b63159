import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kvm } from '@nats-io/kv';
import { rateEngineV1, rpcSubject, SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import {
  freePort,
  repoRoot,
  startFerretDb,
  startNatsServer,
  stopProcess,
  type RunningServer,
} from '@ratesmith/devstack';
import { connectNats, createLogger, type NatsConnection } from '@ratesmith/kit';
import { startShopifyDouble, type ShopifyDouble } from '@ratesmith/shopify-double';
import { parse } from 'yaml';
import {
  always,
  CART_A,
  filter,
  request,
  snapshot,
} from '../../services/rate-engine/test/fixtures/cases';
import { callCarrier, newRateKey, SECRET } from '../../services/rate-engine/test/helpers';
import { mintSessionToken } from '../../services/gateway/src/auth/session-token';
import { chart } from './helm';

/**
 * The alerts (files/alerts.yaml) pass promtool's checks and unit tests
 * (alerts.test.yaml), each links to its runbook section in docs/operations.md, and
 * they and the Grafana dashboard ask only for metrics that exist: the names a real
 * rate engine, gateway and rules service serve on /metrics (the engine's own, the RPC histogram of
 * services/kit, the OpenTelemetry HTTP histogram, the gateway's web vitals, target_info) and
 * kube-state-metrics'.
 */

const alertsFile = join(chart, 'files', 'alerts.yaml');
const unitTests = join(__dirname, 'alerts.test.yaml');

interface AlertRule {
  alert: string;
  expr: string;
  annotations: Record<string, string>;
}
const alerts: AlertRule[] = (
  parse(readFileSync(alertsFile, 'utf8')) as { groups: { rules: AlertRule[] }[] }
).groups.flatMap((g) => g.rules);

/** Debian's `prometheus` package installs promtool (scripts/ensure-test-tools.sh, run by npm test). */
function promtool(...args: string[]): { status: number | null; out: string } {
  const bin = ['/usr/bin/promtool'].find((p) => existsSync(p)) ?? 'promtool';
  const result = spawnSync(bin, args, { encoding: 'utf8' });
  if (result.error) throw new Error(
      `promtool is needed: \`bash scripts/ensure-test-tools.sh promtool\` installs it (npm test runs it first): ${result.error}`,
    );
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe('promtool', () => {
  it('checks the rule file', () => {
    expect(promtool('check', 'rules', alertsFile)).toEqual({
      status: 0,
      out: expect.stringContaining(`SUCCESS: ${alerts.length} rules found`),
    });
  });

  it('passes the unit tests, which fire every alert at least once', () => {
    expect(promtool('test', 'rules', unitTests)).toEqual({
      status: 0,
      out: expect.stringContaining('SUCCESS'),
    });
    const tests = parse(readFileSync(unitTests, 'utf8')) as {
      tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    const fired = new Set(
      tests.tests
        .flatMap((t) => t.alert_rule_test)
        .filter((t) => t.exp_alerts.length > 0)
        .map((t) => t.alertname),
    );
    expect(alerts.map((a) => a.alert).filter((a) => !fired.has(a))).toEqual([]);
  });
});

it('gives every alert a summary, a description and a runbook section in docs/operations.md', () => {
  const operations = readFileSync(join(repoRoot, 'docs', 'operations.md'), 'utf8');
  const alertsSection = operations.slice(operations.indexOf('\n## Alerts\n'));
  expect(alertsSection.length).toBeGreaterThan(0);
  for (const a of alerts) {
    expect(Object.keys(a.annotations).sort()).toEqual(['description', 'runbook_url', 'summary']);
    // A GitHub heading anchor: the heading in lower case.
    expect(a.annotations.runbook_url).toBe(`docs/operations.md#${a.alert.toLowerCase()}`);
    expect(alertsSection).toContain(`\n### ${a.alert}\n`);
  }
});

/** Metric names a PromQL expression reads: what is left without strings, matchers, ranges, groupings, functions and numbers. */
const PROMQL_WORDS = new Set(
  'sum max min avg count rate increase irate histogram_quantile min_over_time max_over_time by without on ignoring and or unless bool offset label_values'.split(
    ' ',
  ),
);
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ')
    // Grafana's label_values(series, label): the label is not a metric.
    .replace(/,\s*\w+\s*\)/g, ')');
  return [...bare.matchAll(/[A-Za-z_:][\w:]*/g)]
    .map((m) => m[0])
    .filter((word) => !PROMQL_WORDS.has(word));
}

/** kube-state-metrics' series the pod alerts and the dashboard read (not the services' own). */
const KUBE_STATE_METRICS = ['kube_pod_container_status_ready', 'kube_pod_container_status_restarts_total'];

describe('metric names', () => {
  const logger = createLogger('alerts-test', 'silent');
  let nats: RunningServer;
  let mongo: RunningServer;
  let nc: NatsConnection;
  let shopify: ShopifyDouble;
  const processes: ChildProcess[] = [];
  const exported = new Set<string>();

  /** A built service on free ports, once /readyz answers 200. */
  async function startService(name: string, env: Record<string, string>) {
    const main = join(repoRoot, 'services', name, 'dist', 'main.js');
    if (!existsSync(main))
      throw new Error(`services/${name} is not built: run \`npm run build\` (npm test does)`);
    const healthPort = await freePort();
    const port = await freePort();
    const child = spawn(process.execPath, [main], {
      env: {
        PATH: process.env.PATH ?? '',
        NATS_URL: nats.url,
        HEALTH_PORT: String(healthPort),
        LOG_LEVEL: 'silent',
        ...env,
        ...(name === 'rate-engine' ? { CARRIER_PORT: String(port) } : { PORT: String(port) }),
      },
      stdio: 'ignore',
    });
    processes.push(child);
    const health = `http://127.0.0.1:${healthPort}`;
    const deadline = Date.now() + 20_000;
    while ((await fetch(`${health}/readyz`).catch(() => undefined))?.status !== 200) {
      if (Date.now() > deadline) throw new Error(`${name} did not get ready`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return { url: `http://127.0.0.1:${port}`, health };
  }

  /** Adds the names of the samples a service serves on /metrics. */
  async function scrape(health: string) {
    const text = await (await fetch(`${health}/metrics`)).text();
    for (const line of text.split('\n'))
      if (line && !line.startsWith('#')) exported.add(/^[A-Za-z_:][\w:]*/.exec(line)![0]);
  }

  beforeAll(async () => {
    [nats, mongo] = await Promise.all([startNatsServer(), startFerretDb()]);
    nc = await connectNats({ url: nats.url, name: 'test', logger });
    // One shop with a rate key, as rules would publish it.
    const rateKey = newRateKey();
    const shop = 'alerts.myshopify.com';
    const kv = await new Kvm(nc).create(SNAPSHOT_BUCKET, { history: 1 });
    const published = { ...snapshot({ filters: [filter(always(), 1, 5)] }), shop, version: 1 };
    await kv.put(shop, JSON.stringify({ ...published, rateKey }));
    const engine = await startService('rate-engine', { SHOPIFY_API_SECRET: SECRET });
    const apiKey = 'alerts-test-key';
    const gateway = await startService('gateway', {
      SHOPIFY_API_KEY: apiKey,
      SHOPIFY_API_SECRET: SECRET,
    });
    // The auth service and the Shopify double, so a session's web vitals reach the gateway's histograms.
    shopify = await startShopifyDouble({ apiKey, apiSecret: SECRET });
    await startService('auth', {
      MONGODB_URI: mongo.url,
      SHOPIFY_API_KEY: apiKey,
      SHOPIFY_API_SECRET: SECRET,
      SHOPIFY_API_ORIGIN: shopify.url,
      APP_URL: gateway.url,
      RATE_ENGINE_URL: engine.url,
      TOKEN_ENCRYPTION_KEYS: `alerts:${Buffer.alloc(32, 3).toString('base64')}`,
    });
    // A signed callback, one whose signature does not verify, one for an unknown
    // rate key, and a preview request over NATS that is not a message.
    const body = request(CART_A);
    expect((await callCarrier(engine.url, rateKey, body)).status).toBe(200);
    const forged = await callCarrier(engine.url, rateKey, body, { signature: 'bm90IGl0' });
    expect(forged.status).toBe(401);
    expect((await callCarrier(engine.url, newRateKey(), body)).status).toBe(404);
    await nc
      .request(rpcSubject(rateEngineV1.RateEngineService.method.previewRates), 'not protobuf')
      .catch(() => undefined);
    // The admin's API without a session token, and a path that does not exist.
    expect((await fetch(`${gateway.url}/api/global-rules`)).status).toBe(401);
    expect((await fetch(`${gateway.url}/no-such-page`)).status).toBe(404);
    // A page view's web vitals, as the admin sends them.
    const vitals = await fetch(`${gateway.url}/api/vitals`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${mintSessionToken({ shop, apiKey, apiSecret: SECRET })}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        page: '/',
        navigation: 'navigate',
        metrics: [
          { name: 'LCP', value: 1900 },
          { name: 'CLS', value: 0.01 },
          { name: 'INP', value: 120 },
        ],
      }),
    });
    expect(vitals.status).toBe(204);
    const rules = await startService('rules', { MONGODB_URI: mongo.url });
    await scrape(engine.health);
    await scrape(gateway.health);
    await scrape(rules.health);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => stopProcess(p)));
    await nc?.close();
    await shopify?.stop();
    await Promise.all([nats?.stop(), mongo?.stop()]);
  });

  it("are the services' own, as a real rate engine, gateway and rules service serve them", () => {
    // The families the alerts rely on, from the engine, services/kit and (the gateway's) HTTP instrumentation.
    for (const name of [
      'ratesmith_carrier_requests_total',
      'ratesmith_carrier_signature_total',
      'ratesmith_quote_duration_bucket',
      'ratesmith_snapshot_age',
      'ratesmith_snapshots_unpublished',
      'ratesmith_rpc_server_duration_count',
      'http_server_request_duration_count',
      'ratesmith_web_vitals_lcp_bucket',
      'ratesmith_web_vitals_cls_bucket',
      'ratesmith_web_vitals_inp_bucket',
    ])
      expect([...exported]).toContain(name);
  });

  it('used by the alerts exist', () => {
    const used = [...new Set(alerts.flatMap((a) => metricNames(a.expr)))];
    expect(used.length).toBeGreaterThan(5);
    expect(used.filter((n) => !exported.has(n) && !KUBE_STATE_METRICS.includes(n))).toEqual([]);
  });

  it('used by the Grafana dashboard exist', () => {
    const dashboard = JSON.parse(readFileSync(join(chart, 'files', 'dashboard.json'), 'utf8'));
    const exprs: string[] = [
      // A row panel has no targets.
      ...dashboard.panels.flatMap((p: { targets?: { expr: string }[] }) =>
        (p.targets ?? []).map((t) => t.expr),
      ),
      ...dashboard.templating.list
        .map((v: { definition?: string }) => v.definition)
        .filter(Boolean),
    ];
    // A name picked by a regular expression would escape the check.
    expect(exprs.filter((e) => e.includes('__name__'))).toEqual([]);
    const used = [...new Set(exprs.flatMap(metricNames))];
    expect(used.length).toBeGreaterThan(3);
    expect(used.filter((n) => !exported.has(n) && !KUBE_STATE_METRICS.includes(n))).toEqual([]);
  });
});
