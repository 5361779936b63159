/**
 * `npm run bench`: the four measurements (docs/performance.md) in one run on this
 * machine, printed as a table (copied into docs/performance.md). Not a test:
 * the figures depend on the machine and on what else it is doing.
 */
import { cpus, totalmem } from 'node:os';
import { measureEngineSpeed, measureIndexMemory, measureItemConditions } from './engine-speed';
import { measureAnalyticsCost } from './analytics-cost';
import { measureCallbackCpu } from './callback-cpu';
import {
  measureAnalyticsLoad,
  measureHttpSpeed,
  measureRecentLoad,
  measureShadowLoad,
} from './http-speed';
import { FULL, TYPICAL } from './fixture';
import { measureMemory } from './memory';
import { measureSaveHistory } from './save-history';
import { measureSaveToServe } from './save-to-serve';
import { fmt, table } from '@ratesmith/devstack';

async function main(): Promise<void> {
  const only = process.argv[2];
  const started = Date.now();
  const say = (text: string) => process.stderr.write(`bench: ${text}\n`);
  const rows: string[][] = [['#', 'measure', 'figure', 'compared with', 'ratio', 'goal', 'met']];
  const met = (ok: boolean) => (ok ? 'met' : 'NOT MET');
  // Each row also goes to stderr as soon as it is measured (a long run may be cut short).
  const add = (row: string[]) => {
    rows.push(row);
    say(row.join(' | '));
  };

  if (!only || only === '1') {
    say('1/4 compiled engine vs json-rules-engine...');
    const e = await measureEngineSpeed();
    add([
      '1',
      'quotes/s, compiled engine, hot path: generated code (whole quote, 40 filters, 25 lines)',
      fmt(e.compiledPerSecond),
      `json-rules-engine ${fmt(e.jrePerSecond)}/s`,
      `${fmt(e.ratio)}x`,
      '>= 300x',
      met(e.ratio >= 300),
    ]);
    add([
      '1b',
      'quotes/s, same shop on the cold tier (program loop, hot tier off)',
      fmt(e.loopPerSecond),
      `hot path ${fmt(e.compiledPerSecond)}/s`,
      `${fmt(e.loopPerSecond / e.jrePerSecond)}x`,
      '',
      '',
    ]);
    const items = measureItemConditions();
    add([
      '1c',
      'µs a quote with 10 item conditions (vendor, type, tag, SKU), 100 lines, 1,000 indexed products',
      `${fmt(items.itemUs, 1)} µs`,
      `the bench ruleset alone ${fmt(items.plainUs, 1)} µs`,
      `${fmt(items.itemUs / items.plainUs, 2)}x`,
      '< 50 µs',
      met(items.itemUs < 50),
    ]);
  }
  if (!only || only === '2') {
    say('2/4 carrier callback vs bare node:http under autocannon...');
    const h = await measureHttpSpeed();
    for (const [i, r] of h.rounds.entries())
      say(
        `2a round ${i + 1} (load average ${fmt(r.loadAverage, 1)}): engine ${fmt(r.engine.requestsPerSecond)} req/s, ${fmt(r.engine.cpuUsPerRequest)} µs CPU a request (main thread ${fmt(r.engine.mainThreadCpuUsPerRequest)}); bare ${fmt(r.bare.requestsPerSecond)} req/s, ${fmt(r.bare.cpuUsPerRequest)} µs (${fmt(r.bare.mainThreadCpuUsPerRequest)}); bare checking the signature ${fmt(r.signedBare.requestsPerSecond)} req/s, ${fmt(r.signedBare.cpuUsPerRequest)} µs; ratio ${fmt(r.ratio, 2)} (signed bare ${fmt(r.signedRatio, 2)})`,
      );
    add([
      '2a',
      `carrier callback req/s (10 connections, 8 s; median of ${h.rounds.length} alternating rounds)`,
      fmt(h.engineRequestsPerSecond),
      `bare node:http ${fmt(h.bareRequestsPerSecond)}/s`,
      fmt(h.ratio, 2),
      '>= 0.9',
      met(h.ratio >= 0.9),
    ]);
    add([
      '2a-hmac',
      'bare node:http that also checks X-Shopify-Hmac-Sha256 (the ceiling of 2a for a server that verifies)',
      `${fmt(h.signedRatio, 2)} x bare`,
      `engine ${fmt(h.engineToSigned, 2)} x this`,
      fmt(h.signedRatio, 2),
      '',
      '',
    ]);
    add([
      '2a-cpu',
      'carrier callback CPU time a request (engine process, all threads; median)',
      `${fmt(h.engineCpuUs)} µs`,
      `bare node:http ${fmt(h.bareCpuUs)} µs`,
      fmt(h.bareCpuUs / h.engineCpuUs, 2),
      '',
      '',
    ]);
    add([
      '2b',
      'carrier callback p99 at 1,000 req/s',
      `${fmt(h.engineAt1000.p99)} ms (max ${fmt(h.engineAt1000.max)})`,
      `bare p99 ${fmt(h.bareAt1000.p99)} ms`,
      '',
      '< 5 ms',
      met(h.engineAt1000.p99 < 5),
    ]);
  }
  if (!only || only === '3') {
    say('3/4 Save All to served rate on the full stack...');
    const s = await measureSaveToServe();
    add([
      '3',
      `Save All answered -> engine serves it (${s.samples} saves)`,
      `p99 ${fmt(s.p99, 1)} ms`,
      `p50 ${fmt(s.p50, 1)} ms, max ${fmt(s.max, 1)} ms`,
      '',
      'p99 < 100 ms',
      met(s.p99 < 100),
    ]);
  }
  if (!only || only === '4') {
    say('4/4 memory with 10,000 shops cached...');
    // 4b: the same shops under the hot tier's previous policy (generated code from a
    // version's 2nd quote, no compile budget), measured in the same run for comparison.
    const previousPolicy = { COMPILE_AFTER_QUOTES: '2', COMPILES_PER_SECOND: '1000000' };
    for (const [label, size, env, goalMb, what] of [
      ['4a', FULL, {}, 300, ''],
      [
        '4b',
        FULL,
        previousPolicy,
        300,
        ', previous hot-tier policy (code from the 2nd quote, unbounded)',
      ],
      ['4c', TYPICAL, {}, 200, ''],
    ] as const) {
      const m = await measureMemory(10_000, size, undefined, env);
      add([
        label,
        `resident memory, ${fmt(m.shops)} shops compiled and quoted twice, ${fmt(m.busyShops)} of them busy, ${m.filters} filters / ${m.conditions} conditions each${what}`,
        `${fmt(m.rssMb)} MB (right after the load ${fmt(m.rssAfterLoadMb)}, peak ${fmt(m.rssPeakMb)})`,
        `idle ${fmt(m.rssIdleMb)} MB; ${fmt(m.snapshotBytes / 1024)} KB JSON a shop; loaded in ${fmt(m.loadSeconds, 1)} s; ${fmt(m.generated)} functions generated; at the end V8 heap ${fmt(m.heapUsedMb)} MB used of ${fmt(m.heapTotalMb)}, external ${fmt(m.externalMb)} MB`,
        `${fmt(m.rssMb / m.rssIdleMb, 2)}x idle`,
        `< ${goalMb} MB`,
        met(m.rssMb < goalMb),
      ]);
    }
  }
  if (!only || only === '4' || only === '4e') {
    const m = await measureMemory(10_000, FULL, undefined, {}, 1000);
    add([
      '4e',
      `resident memory, ${fmt(m.shops)} shops as 4a, each with a tag condition and a product index of 1,000 tagged products`,
      `${fmt(m.rssMb)} MB (right after the load ${fmt(m.rssAfterLoadMb)}, peak ${fmt(m.rssPeakMb)})`,
      `idle ${fmt(m.rssIdleMb)} MB; ${fmt(m.snapshotBytes / 1024)} KB JSON a shop; loaded in ${fmt(m.loadSeconds, 1)} s; V8 heap ${fmt(m.heapUsedMb)} MB used, external ${fmt(m.externalMb)} MB`,
      `${fmt(m.rssMb / m.rssIdleMb, 2)}x idle`,
      '',
      '',
    ]);
  }
  if (!only || only === '4' || only === '4d') {
    const ix = measureIndexMemory();
    const per10k = (kb: number) => (kb * 10_000) / 1024;
    add([
      '4d',
      `heap a cached shop takes with a product index of ${fmt(ix.products)} tagged products (the bench ruleset and one tag condition; ${fmt(ix.shops)} shops weighed)`,
      `${fmt(ix.withIndexKb)} KB (${fmt(per10k(ix.withIndexKb))} MB for 10,000 such shops)`,
      `without the index ${fmt(ix.withoutIndexKb)} KB (${fmt(per10k(ix.withoutIndexKb))} MB)`,
      `${fmt(ix.withIndexKb / ix.withoutIndexKb, 2)}x`,
      '',
      '',
    ]);
  }
  // Only on request (`npm run bench -- saves [rulesets] [versions] [saves a kind]`): the admin's saves, one
  // after another, on a new shop and on one with a long history (docs/performance.md).
  if (only === 'saves') {
    const rulesets = Number(process.argv[3] ?? 50);
    const versions = Number(process.argv[4] ?? 55);
    const saves = Number(process.argv[5] ?? 100);
    say(
      `saves: a new shop, then ${rulesets} rulesets x ${versions} versions, ${saves} saves a kind...`,
    );
    const h = await measureSaveHistory({ rulesets, versions, saves, log: say });
    const figure = (f: { p50: number; p99: number; commands: number; scans: number }) =>
      `p50 ${fmt(f.p50)} / p99 ${fmt(f.p99)} ms; ${fmt(f.commands, 1)} MongoDB commands to the answer (${fmt(f.scans, 1)} whole-collection)`;
    // Against the new shop of the empty database, and against a new shop of the full one:
    // the shop's own history apart from the database's size, which FerretDB's costs grow
    // with (docs/performance.md, "Saves and their history").
    for (const [k, empty] of h.empty.entries()) {
      const full = h.full[k]!;
      const fresh = h.newInFull[k]!;
      add([
        `S${k + 1}`,
        `${empty.label}, one after another: ${h.rulesets} rulesets x ${h.versions} versions (full) vs a new shop`,
        figure(full),
        `new shop, empty database: ${figure(empty)}; new shop, full database: ${figure(fresh)}`,
        `${fmt(full.p99 / empty.p99, 2)}x / ${fmt(full.p99 / fresh.p99, 2)}x p99`,
        `p99 < ${full.goalMs} ms, within 1.2x of the new shop in the same database`,
        met(
          full.p99 < full.goalMs &&
            empty.p99 < full.goalMs &&
            fresh.p99 < full.goalMs &&
            full.p99 <= 1.2 * fresh.p99,
        ),
      ]);
    }
    add([
      `S${h.empty.length + 1}`,
      `${h.largest.label}, on the full shop (5 saves; ${h.productRules} product rules)`,
      figure(h.largest),
      '',
      '',
      '< 1 s',
      met(h.largest.p99 < 1000),
    ]);
    const perCall = (f: { byCommand?: Record<string, number> }) =>
      Object.entries(f.byCommand ?? {})
        .map(([command, n]) => `${command} ${fmt(n, 2)}`)
        .join(', ');
    for (const [k, empty] of h.empty.entries())
      say(
        `${empty.label}: commands to the answer per call, new shop: ${perCall(empty)}; full shop: ${perCall(h.full[k]!)}`,
      );
    for (const [shop, b] of Object.entries(h.breakdown)) {
      const what = shop === 'largest' ? '100 filters x 50 conditions, full' : `3 filters, ${shop}`;
      say(`one Save All of ${what} shop, MongoDB quiet before it: ${fmt(b.ms, 1)} ms`);
      say(
        `  spans (offset, duration, name [service]):\n    ${b.spans.join('\n    ') || '(none received)'}`,
      );
      say(`  FerretDB, each command until the answer:\n    ${b.commands.join('\n    ')}`);
    }
  }
  // Only on request (`npm run bench -- callback`): what the callback's handler adds, without sockets.
  if (only === 'callback') {
    say('callback handler CPU a request, in process, against the bare handler...');
    const c = await measureCallbackCpu();
    add([
      'C',
      'carrier callback handler CPU a request (in process, no sockets; median of 7 rounds)',
      `${fmt(c.engine, 1)} µs`,
      `bare handler ${fmt(c.bare, 1)} µs`,
      `+${fmt(c.engine - c.bare, 1)} µs`,
      '',
      '',
    ]);
    add([
      'C-S',
      'the same, the shop in shadow (no quote answered; 50 a second compared after the answer, counted)',
      `${fmt(c.shadow, 1)} µs`,
      `not in shadow ${fmt(c.engine, 1)} µs`,
      '',
      'no more than not in shadow',
      met(c.shadow <= c.engine),
    ]);
  }
  // Only on request (`npm run bench -- recent`): the check that sampling costs the callback nothing.
  if (only === 'recent') {
    say('recent checkouts: callback p99 at 1,000 req/s, sampling off and on...');
    const r = await measureRecentLoad();
    const p99s = (runs: { p99: number }[]) => runs.map((run) => fmt(run.p99)).join(' / ');
    const worst = (runs: { p99: number }[]) => Math.max(...runs.map((run) => run.p99));
    add([
      'R',
      'carrier callback p99 at 1,000 req/s, recent checkouts sampling on (30 a minute)',
      `${p99s(r.on)} ms`,
      `off ${p99s(r.off)} ms`,
      '',
      'worst on <= worst off + 2 ms',
      met(worst(r.on) <= worst(r.off) + 2),
    ]);
  }

  // Only on request (`npm run bench -- shadow`): shadow mode adds no measurable time to the callback.
  if (only === 'shadow') {
    say('shadow mode: callback p99 at 1,000 req/s, shadow off and on...');
    const r = await measureShadowLoad();
    const p99s = (runs: { p99: number }[]) => runs.map((run) => fmt(run.p99)).join(' / ');
    const worst = (runs: { p99: number }[]) => Math.max(...runs.map((run) => run.p99));
    add([
      'S',
      'carrier callback p99 at 1,000 req/s, the shop in shadow (50 compared a second)',
      `${p99s(r.on)} ms`,
      `off ${p99s(r.off)} ms`,
      '',
      'worst on <= worst off + 2 ms',
      met(worst(r.on) <= worst(r.off) + 2),
    ]);
  }

  // Only on request (`npm run bench -- analytics`): the bound: 2a may not drop more than 5 %.
  if (only === 'analytics') {
    say('per-filter analytics: in-process cost of counting over 1e6 quotes...');
    const c = measureAnalyticsCost();
    const best = (runs: number[]) => Math.min(...runs);
    const median = (runs: number[]) => [...runs].sort((x, y) => x - y)[runs.length >> 1]!;
    const extra = (best(c.on) - best(c.off)) / best(c.off);
    add([
      'A1',
      `ns per callback (quote, and counting when on; ${c.matched} filters matched): best / median of 10 rounds of 200,000`,
      `on ${fmt(best(c.on))} / ${fmt(median(c.on))}`,
      `off ${fmt(best(c.off))} / ${fmt(median(c.off))}; record() alone ${fmt(best(c.record))} / ${fmt(median(c.record))}`,
      `+${fmt(extra * 100, 1)} %`,
      '< 5 %',
      met(extra < 0.05),
    ]);
    say('per-filter analytics: measure 2a, counting off and on, alternating...');
    const r = await measureAnalyticsLoad();
    const rps = (runs: { requestsPerSecond: number }[]) =>
      runs.map((run) => fmt(run.requestsPerSecond)).join(' / ');
    const mean = (runs: { requestsPerSecond: number }[]) =>
      runs.reduce((n, run) => n + run.requestsPerSecond, 0) / runs.length;
    add([
      'A2',
      'carrier callback req/s (2a), per-filter counting on, each round',
      rps(r.on),
      `off ${rps(r.off)}`,
      fmt(mean(r.on) / mean(r.off), 3),
      '>= 0.95',
      met(mean(r.on) >= 0.95 * mean(r.off)),
    ]);
  }

  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  process.stdout.write(
    `${table(rows)}\n\nMachine: ${cpus().length} x ${cpu}, ${fmt(totalmem() / 2 ** 30, 1)} GB RAM, Node ${process.version}; run took ${fmt((Date.now() - started) / 1000)} s.\n`,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
