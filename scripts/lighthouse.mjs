// `npm run bench:lighthouse`: Lighthouse's performance figures for every
// admin page, mobile and desktop presets, on the app as `npm start` runs it
// (this script starts that stack itself, twice: first with
// FRONTEND_COMPRESSION=false, the uncompressed baseline the gateway served
// before compression, then as shipped). Prints per page the performance score,
// FCP, LCP, TBT and CLS, and the shipped/baseline ratio of LCP. Not a test:
// the figures depend on the machine and on what else it is doing
// (docs/performance.md, "First load of the admin", has a run's figures).
//
// Chromium: Debian's /usr/bin/chromium (CHROMIUM_PATH to change), headless,
// without its sandbox (it runs as root here). LIGHTHOUSE_RUNS=n takes the
// median of n runs per page and preset (default 1). LIGHTHOUSE_URL=<url of a
// running app> measures that app once instead (no baseline, nothing started).
// `--json <file>` also writes every figure as JSON. LIGHTHOUSE_PAGES and LIGHTHOUSE_PRESETS
// narrow the run (below). LIGHTHOUSE_HTTP2=1 puts a
// TLS front speaking HTTP/2 before each stack, as the chart's ingress does in
// production (tools/devstack/src/http2-front.ts), and measures through it.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import benchTable from '../tools/devstack/dist/bench-table.js';
import demoApp from '../tools/devstack/dist/demo-app.js';
import http2Front from '../tools/devstack/dist/http2-front.js';

const { DEMO_SHOP: SHOP, startDemoApp } = demoApp;
const { median, table } = benchTable;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1));
const HTTP2 = process.env.LIGHTHOUSE_HTTP2 === '1';
const HOST = Buffer.from('admin.shopify.com/store/ratesmith-demo').toString('base64url');
const say = (text) => process.stderr.write(`lighthouse: ${text}\n`);

/** The admin's pages (frontend/src/routes.tsx); `:id` is a ruleset this script creates. */
const PAGES = [
  ['dashboard', '/'],
  ['rulesets', '/global-rules'],
  ['edit ruleset', '/edit-global-rule/:id'],
  ['product rules', '/product-rules'],
  ['settings', '/settings'],
  ['FAQ', '/faq'],
];
const PRESETS = { mobile: undefined, desktop: desktopConfig };
// LIGHTHOUSE_PAGES=dashboard,settings measures those pages only (names as in PAGES);
// LIGHTHOUSE_PRESETS=mobile one preset only.
const only = (value, all) =>
  value ? all.filter(([name]) => value.split(',').includes(name)) : all;
const pages = only(process.env.LIGHTHOUSE_PAGES, PAGES);
const presets = only(process.env.LIGHTHOUSE_PRESETS, Object.entries(PRESETS));

/** The app as `npm start` runs it (tools/devstack/src/demo-app.ts), on a free port. */
const startStack = (env) => startDemoApp({ env, timeoutMs: 180_000 });

/** A ruleset to edit: the demo shop's first, else a new one (the first /api call installs the shop). */
async function rulesetId(url) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const { token } = await (await fetch(`${url}/demo/session-token?shop=${SHOP}`)).json();
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const list = await fetch(`${url}/api/global-rules`, { headers });
      if (list.ok) {
        const body = await list.json();
        const first = (body.rules ?? body.globalRules ?? [])[0];
        if (first?.id) return first.id;
        const created = await fetch(`${url}/api/global-rules`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: 'Lighthouse' }),
        });
        if (created.ok) return (await created.json()).rule.id;
      }
    } catch {
      // not answering yet
    }
    if (Date.now() > deadline) throw new Error(`${url} never answered /api/global-rules`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * One Lighthouse run in a Chromium of its own, as Lighthouse's CLI does (no
 * state left between runs). Lighthouse 12.2.3 on Debian's Chromium now and
 * then fails to record the page load's trace (NO_NAVSTART, "please run
 * Lighthouse again"): such a run is repeated, up to 3 tries, and counted.
 */
let retries = 0;
async function lighthouseRun(target, config) {
  for (let attempt = 1; ; attempt++) {
    const chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        // The HTTP/2 front's certificate is made on the spot for localhost.
        ...(HTTP2 ? ['--ignore-certificate-errors'] : []),
      ],
    });
    try {
      const result = await lighthouse(
        target,
        { port: chrome.port, onlyCategories: ['performance'], logLevel: 'error' },
        config,
      );
      const error = result?.lhr.runtimeError;
      if (!error) return result;
      if (attempt === 3) throw new Error(`${target}: ${error.code} ${error.message}`);
    } catch (err) {
      if (attempt === 3) throw err;
      say(`${target}: ${err.message.slice(0, 120)}; again`);
    } finally {
      chrome.kill();
    }
    retries++;
  }
}

/** Every page in both presets, RUNS times each; the median of each figure. */
async function measure(url, label, pagesUrl = url) {
  const id = await rulesetId(url);
  const results = [];
  for (const [name, path] of pages) {
    for (const [preset, config] of presets) {
      const target = `${pagesUrl}${path.replace(':id', id)}?shop=${SHOP}&host=${HOST}`;
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const result = await lighthouseRun(target, config);
        const { audits, categories } = result.lhr;
        // The elements that moved most, for a CLS over Shopify's bar of 0.1 (Lighthouse 12: layout-shifts).
        const shifts = audits['layout-shifts']?.details?.items ?? [];
        if (audits['cumulative-layout-shift'].numericValue > 0.1)
          for (const item of shifts.slice(0, 5))
            say(
              `  ${name} ${preset} shift ${item.score?.toFixed(3)}: ${item.node?.snippet?.slice(0, 160)}`,
            );
        runs.push({
          score: Math.round(categories.performance.score * 100),
          fcp: audits['first-contentful-paint'].numericValue,
          lcp: audits['largest-contentful-paint'].numericValue,
          tbt: audits['total-blocking-time'].numericValue,
          cls: audits['cumulative-layout-shift'].numericValue,
          transfer: audits['total-byte-weight'].numericValue,
          unusedJs: audits['unused-javascript'].details?.overallSavingsBytes ?? 0,
          benchmarkIndex: result.lhr.environment.benchmarkIndex,
        });
      }
      const row = { label, page: name, path, preset };
      for (const key of Object.keys(runs[0])) row[key] = median(runs.map((r) => r[key]));
      say(
        `${label} ${name} ${preset}: ${row.score} (LCP ${(row.lcp / 1000).toFixed(1)} s, ` +
          `TBT ${Math.round(row.tbt)} ms)`,
      );
      results.push(row);
    }
  }
  return results;
}

async function measureStack(env, label) {
  say(`starting the app (${label})...`);
  const app = await startStack(env);
  const front = HTTP2 ? await http2Front.startHttp2Front({ port: app.port }) : undefined;
  try {
    return await measure(app.url, HTTP2 ? `${label}, HTTP/2` : label, front?.url);
  } finally {
    await front?.stop();
    await app.stop();
  }
}

async function measureRunning(url) {
  const front = HTTP2
    ? await http2Front.startHttp2Front({ port: Number(new URL(url).port) })
    : undefined;
  try {
    return await measure(url, HTTP2 ? 'running app, HTTP/2' : 'running app', front?.url);
  } finally {
    await front?.stop();
  }
}

async function main() {
  const started = Date.now();
  const shipped = process.env.LIGHTHOUSE_URL
    ? await measureRunning(process.env.LIGHTHOUSE_URL)
    : await measureStack({}, 'compressed');
  const baseline = process.env.LIGHTHOUSE_URL
    ? []
    : await measureStack({ FRONTEND_COMPRESSION: 'false' }, 'uncompressed');
  const before = (row) => baseline.find((b) => b.path === row.path && b.preset === row.preset);
  const s = (ms) => (ms / 1000).toFixed(2);
  const kib = (bytes) => (bytes / 1024).toFixed(0);
  const header = [
    'page',
    'preset',
    'score',
    'FCP s',
    'LCP s',
    'TBT ms',
    'CLS',
    'KiB',
    'unused JS KiB',
  ];
  if (baseline.length)
    header.push(
      'baseline score',
      'baseline LCP s',
      'LCP ratio',
      'baseline KiB',
      'baseline unused JS KiB',
    );
  header.push('goal (mobile ≥ 90, LCP < 2.5 s)');
  const rows = [header];
  for (const r of shipped) {
    const row = [
      r.page,
      r.preset,
      r.score,
      s(r.fcp),
      s(r.lcp),
      Math.round(r.tbt),
      r.cls.toFixed(3),
    ];
    row.push(kib(r.transfer), kib(r.unusedJs));
    const b = before(r);
    if (b)
      row.push(b.score, s(b.lcp), (r.lcp / b.lcp).toFixed(2), kib(b.transfer), kib(b.unusedJs));
    const met = r.lcp < 2500 && (r.preset !== 'mobile' || r.score >= 90);
    row.push(met ? 'met' : 'NOT MET');
    rows.push(row);
  }
  // Lighthouse's CPU benchmark of each run: how fast the machine was (a busy machine scores low).
  const indices = [...shipped, ...baseline].map((r) => r.benchmarkIndex);
  const index = `${Math.round(Math.min(...indices))}–${Math.round(Math.max(...indices))}`;
  console.log(
    `Lighthouse 12.2.3, ${CHROMIUM}, ${RUNS} run(s) per page and preset (median), ` +
      `${HTTP2 ? 'HTTP/2 over TLS through a front as the ingress' : 'HTTP/1.1 to the gateway'}, ` +
      `${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
      `load average at the end ${loadavg()[0].toFixed(2)}, Lighthouse benchmarkIndex ${index}, ` +
      `${Math.round((Date.now() - started) / 1000)} s, ${retries} run(s) repeated after a failed trace`,
  );
  console.log(table(rows.map((r) => r.map(String))));
  const jsonAt = process.argv.indexOf('--json');
  if (jsonAt > 0)
    writeFileSync(process.argv[jsonAt + 1], JSON.stringify({ shipped, baseline }, null, 1));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
