import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { DEMO_SHOP, startDemoApp } from '../../tools/devstack/src/demo-app';
import { metricSamples, type MetricSample } from '../../tools/devstack/src/metric-samples';
import { repoRoot } from '../../tools/devstack/src/servers';
import { timedStart } from '../../tools/devstack/src/stack-timings';
import { EVERY_PAGE_VIEW_FLAG } from '../src/vitals/sampling';

/**
 * Browser tests run the app exactly as `npm start` does (the built devstack
 * start script: NATS, FerretDB, every service, the gateway serving the built
 * frontend in demo mode), on a free port with its own data folder, and drive
 * it with Debian's Chromium through playwright-core.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export { DEMO_SHOP };
/** What the Shopify admin passes as `host`: base64url of the shop's admin path. */
export const DEMO_HOST = Buffer.from('admin.shopify.com/store/ratesmith-demo').toString(
  'base64url',
);
export const SCREENSHOTS = join(repoRoot, 'docs', 'screenshots');

export interface RunningApp {
  url: string;
  /** Everything the stack printed so far (its banner names its servers). */
  output(): string;
  /** A fetch to the app's /api with a fresh demo session token. */
  api(
    path: string,
    init?: { method?: string; json?: unknown },
  ): Promise<{ status: number; body: any }>;
  /** The samples the gateway serves on /metrics whose names start with `prefix`. */
  gatewayMetrics(prefix: string): Promise<MetricSample[]>;
  stop(): Promise<void>;
}

/**
 * `env` adds to the stack's environment (e.g. a double switch). Its time until the
 * first /api answer counts as starting a stack in the slowest-files table.
 */
export function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  return timedStart('the app, until its first /api answer', () => startAppUntimed(env));
}

async function startAppUntimed(env: Record<string, string>): Promise<RunningApp> {
  const { url, stop, output, gatewayMetricsUrl } = await startDemoApp({
    env,
    timeoutMs: 280_000,
  });
  const deadline = Date.now() + 120_000;
  const app: RunningApp = {
    url,
    output,
    stop,
    async api(path, init = {}) {
      const token = (
        (await (await fetch(`${url}/demo/session-token?shop=${DEMO_SHOP}`)).json()) as {
          token: string;
        }
      ).token;
      const res = await fetch(`${url}${path}`, {
        method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
        headers: {
          authorization: `Bearer ${token}`,
          ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
      return { status: res.status, body: await res.json() };
    },
    gatewayMetrics: async (prefix) =>
      metricSamples(await (await fetch(gatewayMetricsUrl)).text(), prefix),
  };
  // The banner says every service answers; the demo shop's first /api call also installs
  // it (token exchange). Tests start once a merchant's first request would succeed, so a
  // test's first page is not the one that pays for a cold stack on a loaded machine.
  let last: unknown;
  while (Date.now() < deadline) {
    last = await app.api('/api/global-rules').catch((err: Error) => err.message);
    if ((last as { status?: number }).status === 200) return app;
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`the app never answered /api/global-rules: ${JSON.stringify(last)}`);
}

/** Debian's Chromium, headless, never reaching out to the internet by itself. */
/**
 * The app and a browser for one test file: both started (side by side)
 * before its tests, both stopped after them. Read `suite.app` and
 * `suite.browser` inside hooks and tests; `env` is passed to startApp.
 */
export function appAndBrowser(env: Record<string, string> = {}): {
  readonly app: RunningApp;
  readonly browser: Browser;
} {
  const suite = {} as { app: RunningApp; browser: Browser };
  beforeAll(async () => {
    [suite.app, suite.browser] = await Promise.all([startApp(env), launchBrowser()]);
  }, 400_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.app?.stop();
  });
  return suite;
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: \`bash scripts/ensure-test-tools.sh chromium\` installs it (npm test runs it first), or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--disable-sync',
    ],
  });
}

/**
 * A page on the app at `path`, as the admin opens it (shop and host in the
 * query) unless `embedded: false`. Failed requests to other hosts and page
 * errors are collected so a test can assert there were none.
 */
export async function openPage(
  browser: Browser,
  app: RunningApp,
  path: string,
  options: {
    embedded?: boolean;
    /** The window (default 1280 × 900) and its zoom (default 1). */
    viewport?: { width: number; height: number };
    deviceScaleFactor?: number;
    /** Every page view reports its web vitals, not one in SAMPLE_ONE_IN (frontend/src/vitals/sampling.ts). */
    everyPageViewReportsVitals?: boolean;
  } = {},
): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    deviceScaleFactor: options.deviceScaleFactor ?? 1,
  });
  if (options.everyPageViewReportsVitals)
    await context.addInitScript((flag) => {
      (window as unknown as Record<string, unknown>)[flag] = true;
    }, EVERY_PAGE_VIEW_FLAG);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('request', (req) => {
    if (!req.url().startsWith(app.url) && !req.url().startsWith('data:'))
      problems.push(`request outside the app: ${req.url()}`);
  });
  const target =
    options.embedded === false
      ? path
      : `${path}${path.includes('?') ? '&' : '?'}shop=${DEMO_SHOP}&host=${DEMO_HOST}`;
  await page.goto(`${app.url}${target}`);
  return { page, problems };
}

/**
 * A field's value once it is `expected`, or what it holds after `ms`: a value
 * set by an effect (a suggested name, say) lands a render after the click
 * that asked for it, so reading it at once races React.
 */
export async function settledValue(field: Locator, expected: string, ms = 5000): Promise<string> {
  const deadline = Date.now() + ms;
  let value = await field.inputValue();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await field.inputValue();
  }
  return value;
}

/** Saves docs/screenshots/<name>.png (the whole page). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}

/** axe-core's browser build, injected into the page under test (there is no network to fetch it). */
let axeSource: string | undefined;
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Runs axe-core (WCAG 2.1 A and AA rules) on the page as it is now and fails
 * with one line per violation (rule, impact, help) and the first three elements
 * (selector, what is wrong, their HTML) when it finds any. No rule is turned
 * off. `label` names the page and state in the message.
 */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  axeSource ??= readFileSync(join(dirname(require.resolve('axe-core')), 'axe.min.js'), 'utf8');
  // Finished transitions only: a half-faded modal or toast is not what the merchant reads.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
  // Evaluated through the DevTools protocol: the app's CSP refuses inline <script> tags.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const { axe } = window as unknown as {
      axe: { run(context: Document, options: RunOptions): Promise<AxeResults> };
    };
    const results: AxeResults = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
    });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.join(' >>> '),
        html: n.html.slice(0, 160),
        why: (n.failureSummary ?? '').replace(/\s*\n\s*/g, ' '),
      })),
    }));
  }, AXE_TAGS);
  if (violations.length > 0) {
    const lines = violations.flatMap((v) => [
      `- ${v.id} (${v.impact}): ${v.help} [${v.nodes.length} element(s)]`,
      ...v.nodes.slice(0, 3).map((n) => `    ${n.target}: ${n.why}\n      ${n.html}`),
    ]);
    throw new Error(
      `axe found ${violations.length} violation(s) on ${label}:\n${lines.join('\n')}`,
    );
  }
}
