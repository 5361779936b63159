import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { DEMO_SHOP, startDemoApp } from '../../tools/devstack/src/demo-app';
import { metricSamples, type MetricSample } from '../../tools/devstack/src/metric-samples';
import { repoRoot } from '../../tools/devstack/src/servers';
import { timedStart } from '../../tools/devstack/src/stack-timings';
import { EVERY_PAGE_VIEW_FLAG } from '../src/vitals/sampling';
import {
  addressesOf,
  apiAs,
  hostOf,
  sharedAppAddresses,
  shopOfTestFile,
  untilShopAnswers,
  type SharedAppAddresses,
} from './shared-app';

/**
 * Browser tests run the app exactly as `npm start` does (the built devstack
 * start script: NATS, FerretDB, every service, the gateway serving the built
 * frontend in demo mode) and drive it with Debian's Chromium through
 * playwright-core. The files share one app, started once per jest run by the
 * `browser` project's globalSetup (shared-app.ts), each in a shop of its own
 * named after the file (appAndBrowser); a file that changes the whole app or
 * measures a cold one starts its own (startOwnApp, ownAppAndBrowser).
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export { DEMO_SHOP };
export const SCREENSHOTS = join(repoRoot, 'docs', 'screenshots');

/** The app as one shop's merchant and Shopify see it. */
export interface RunningApp {
  url: string;
  /** The shop this handle works in: its session tokens, pages and store settings. */
  shop: string;
  /** The `host` query parameter of the shop's admin (base64url of its admin path). */
  host: string;
  /** The Shopify double (its test controls are under /__double/). */
  shopifyUrl: string;
  /** FerretDB, where the services keep their data (MongoDB wire protocol). */
  mongoUri: string;
  /** A fetch to the app's /api with a fresh session token of `shop`. */
  api(
    path: string,
    init?: { method?: string; json?: unknown },
  ): Promise<{ status: number; body: any }>;
  /** The samples the gateway serves on /metrics whose names start with `prefix`. */
  gatewayMetrics(prefix: string): Promise<MetricSample[]>;
}

/** An app a test file started for itself: the demo shop's, with its output, stopped by the file. */
export interface OwnApp extends RunningApp {
  /** The stack's start script: each service is a child of this process. */
  pid: number;
  /** Everything the stack printed so far (its banner names its servers). */
  output(): string;
  stop(): Promise<void>;
}

/** `addresses` as `shop` works in it. */
function appForShop(addresses: SharedAppAddresses, shop: string): RunningApp {
  return {
    url: addresses.url,
    shop,
    host: hostOf(shop),
    shopifyUrl: addresses.shopifyUrl,
    mongoUri: addresses.mongoUri,
    api: (path, init) => apiAs(addresses.url, shop, path, init),
    gatewayMetrics: async (prefix) =>
      metricSamples(await (await fetch(addresses.gatewayMetricsUrl)).text(), prefix),
  };
}

/**
 * An app of this test file's own, for the demo shop, for files that change the
 * whole app (freeze one of its processes) or measure a cold one. `env` adds to the
 * stack's environment. Its time until the first /api answer counts as starting a
 * stack in the slowest-files table.
 */
export function startOwnApp(env: Record<string, string> = {}): Promise<OwnApp> {
  return timedStart('the app, until its first /api answer', () => startOwnAppUntimed(env));
}

async function startOwnAppUntimed(env: Record<string, string>): Promise<OwnApp> {
  const demo = await startDemoApp({ env, timeoutMs: 280_000 });
  try {
    const app: OwnApp = {
      ...appForShop(addressesOf(demo), DEMO_SHOP),
      pid: demo.pid,
      output: demo.output,
      stop: demo.stop,
    };
    // The banner says every service answers; the demo shop's first /api call also installs
    // it (token exchange). Tests start once a merchant's first request would succeed, so a
    // test's first page is not the one that pays for a cold stack on a loaded machine.
    await untilShopAnswers(app.url, app.shop, 120_000);
    return app;
  } catch (err) {
    await demo.stop();
    throw err;
  }
}

/** A shop's settings in Shopify's admin (the double's PUT /__double/shops/<shop>/store). */
export interface StoreSetup {
  /** The store currency, a 3-letter code (USD otherwise). */
  currency?: string;
  /** The store's default weight unit (KILOGRAMS otherwise). */
  weightUnit?: 'GRAMS' | 'KILOGRAMS' | 'OUNCES' | 'POUNDS';
  /** false: the shop's plan lacks carrier-calculated shipping. */
  carrierCalculatedShipping?: boolean;
}

/** The test file jest runs in this worker now. */
function currentTestPath(): string {
  const path = expect.getState().testPath;
  if (!path) throw new Error('appAndBrowser() runs in a jest test file only');
  return path;
}

/**
 * The shared app, as this test file's shop works in it, and a browser: before
 * the file's tests, the browser is launched, `store` is set in the Shopify
 * double and the shop makes its first /api call (which installs it); after
 * them the browser is closed (the app runs on for the other files). Read
 * `suite.app` and `suite.browser` inside hooks and tests.
 */
export function appAndBrowser(store: StoreSetup = {}): {
  readonly app: RunningApp;
  readonly browser: Browser;
} {
  const suite = {} as { app: RunningApp; browser: Browser };
  beforeAll(async () => {
    const app = appForShop(sharedAppAddresses(), shopOfTestFile(currentTestPath()));
    const prepare = async () => {
      // Before the shop's first call: the install reads its currency and weight unit.
      if (Object.keys(store).length > 0) await setStore(app, store);
      await untilShopAnswers(app.url, app.shop, 120_000);
    };
    [, suite.browser] = await Promise.all([prepare(), launchBrowser()]);
    suite.app = app;
  }, 300_000);
  afterAll(async () => {
    await suite.browser?.close();
  });
  return suite;
}

/** The app of this file's own (startOwnApp) and a browser, both stopped after the file's tests. */
export function ownAppAndBrowser(env: Record<string, string> = {}): {
  readonly app: OwnApp;
  readonly browser: Browser;
} {
  const suite = {} as { app: OwnApp; browser: Browser };
  beforeAll(async () => {
    [suite.app, suite.browser] = await Promise.all([startOwnApp(env), launchBrowser()]);
  }, 400_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.app?.stop();
  });
  return suite;
}

/**
 * Installs the app's shop through the Shopify double (which approves at once and
 * redirects to the app's callback): the shop then has an access token, which the
 * catalog (the product picker) and the store's currency need.
 */
export async function installThroughDouble(app: RunningApp): Promise<void> {
  const install = await fetch(`${app.url}/api/install`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ shop: app.shop, email: 'merchant@example.com' }),
  });
  const { url } = (await install.json()) as { url: string };
  const approved = await fetch(url, { redirect: 'follow' });
  if (!approved.ok) throw new Error(`demo install failed: HTTP ${approved.status}`);
}

/** Sets the shop's store settings in the Shopify double (tools/shopify-double/src/controls.ts). */
async function setStore(app: RunningApp, store: StoreSetup): Promise<void> {
  const res = await fetch(`${app.shopifyUrl}/__double/shops/${app.shop}/store`, {
    method: 'PUT',
    body: JSON.stringify(store),
  });
  if (res.status !== 200)
    throw new Error(`the double refused the store setup of ${app.shop}: ${await res.text()}`);
}

/** Debian's Chromium, headless, never reaching out to the internet by itself. */
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
 * Chromium's log line for a request it dropped because this machine's network changed
 * under it: Docker adding or removing a network for another suite's containers
 * (`tools/devstack/test/images.int.spec.ts`) fails what is in flight with
 * ERR_NETWORK_CHANGED. That is the machine's doing, not the app's, so it is not a
 * page's problem; a request the page needed still fails the test where it is used.
 */
const NETWORK_CHANGED = /^Failed to load resource: net::ERR_NETWORK_CHANGED$/;

/**
 * A page on the app at `path`, as the admin opens it for `app.shop` (shop and
 * host in the query) unless `embedded: false`. Failed requests to other hosts and page
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
    /** Every page view reports its web vitals; without it none does (frontend/src/vitals/sampling.ts). */
    everyPageViewReportsVitals?: boolean;
  } = {},
): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    deviceScaleFactor: options.deviceScaleFactor ?? 1,
  });
  // Every page view reports its web vitals, or none does (frontend/src/vitals/sampling.ts):
  // no other file's page on the shared app adds to the counts a test reads.
  await context.addInitScript(
    ([flag, every]) => {
      (window as unknown as Record<string, unknown>)[flag] = every;
    },
    [EVERY_PAGE_VIEW_FLAG, options.everyPageViewReportsVitals === true] as const,
  );
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !NETWORK_CHANGED.test(msg.text()))
      problems.push(`console error: ${msg.text()}`);
  });
  page.on('request', (req) => {
    if (!req.url().startsWith(app.url) && !req.url().startsWith('data:'))
      problems.push(`request outside the app: ${req.url()}`);
  });
  const target =
    options.embedded === false
      ? path
      : `${path}${path.includes('?') ? '&' : '?'}shop=${app.shop}&host=${app.host}`;
  await page.goto(`${app.url}${target}`);
  return { page, problems };
}

/**
 * A field's value once it is `expected`, or what it holds after `ms`: a value
 * set by an effect (a suggested name, say) lands a render after the click
 * that asked for it, so reading it at once races React.
 */
export async function settledValue(field: Locator, expected: string, ms = 5000): Promise<string> {
  return settled(() => field.inputValue(), expected, ms);
}

/**
 * An element's text once it is `expected`, or what it shows after `ms`: text
 * with amounts in the shop's currency is drawn again once GET /api/shop has
 * answered (frontend/src/money/useShopCurrency.ts), which can be after the
 * page's first render.
 */
export async function settledText(element: Locator, expected: string, ms = 5000): Promise<string> {
  return settled(() => element.innerText(), expected, ms);
}

async function settled(read: () => Promise<string>, expected: string, ms: number) {
  const deadline = Date.now() + ms;
  let value = await read();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
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

/** The two widths of the admin's screenshots: a laptop and a phone. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * docs/screenshots/<name>.png at 1280 × 800 and <name>-390.png at 390 × 844,
 * axe-core at both; the page is left at 1280 × 800.
 */
export async function atBothWidths(page: Page, name: string, label: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await screenshot(page, name);
  await expectNoAxeViolations(page, label);
  await page.setViewportSize(PHONE);
  await screenshot(page, `${name}-390`);
  await expectNoAxeViolations(page, `${label} at 390 px`);
  await page.setViewportSize(DESKTOP);
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
