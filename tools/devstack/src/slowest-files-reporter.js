// @ts-check
'use strict';
/**
 * A jest reporter (registered in jest.config.js) that prints, at the end of every run,
 * the slowest test files: each one's wall time and, where the file started its own
 * stack through the devstack helpers (NATS, FerretDB, the app, a fault or cluster
 * stack), how much of that time went to starting them. The helpers record their start
 * intervals (tools/devstack/src/stack-timings.ts) in a folder this reporter makes and
 * names in RATESMITH_STACK_TIMINGS_DIR before the workers start; overlapping or nested
 * starts of one file count once. Anything that goes wrong here becomes one line instead
 * of the table. Stacks started once for the whole run, outside every file (the browser
 * project's globalSetup: the app its files share), are named in
 * RATESMITH_SHARED_STACK_STARTS (stack-timings.ts) and get one line each below the table.
 * It fails a run for one reason only: RATESMITH_TEST_BUDGET_S is set (the
 * default `npm test` sets it) and the run took longer, counted from
 * RATESMITH_TEST_STARTED_MS (epoch ms, when a run is several jest commands) or else from
 * jest's own start; the error names the slowest files. docs/testing.md describes it.
 *
 * Plain CommonJS because jest loads reporters without its transform; the types of its
 * exports are in slowest-files-reporter.d.ts.
 */
const { mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, relative } = require('node:path');

const STACK_TIMINGS_ENV = 'RATESMITH_STACK_TIMINGS_DIR';
const SHARED_STACK_STARTS_ENV = 'RATESMITH_SHARED_STACK_STARTS';
const BUDGET_ENV = 'RATESMITH_TEST_BUDGET_S';
const STARTED_ENV = 'RATESMITH_TEST_STARTED_MS';

/**
 * The stack-start lines of a folder, per test file: [began, ended] intervals.
 * @param {string} dir
 * @returns {Map<string, [number, number][]>}
 */
function readStackStarts(dir) {
  /** @type {Map<string, [number, number][]>} */
  const byFile = new Map();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.jsonl')) continue;
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      try {
        const { testPath, began, ended } = JSON.parse(line);
        if (typeof testPath !== 'string' || !(ended >= began)) continue;
        const list = byFile.get(testPath) ?? [];
        list.push([began, ended]);
        byFile.set(testPath, list);
      } catch {
        // A torn line (a worker killed mid-write) is skipped.
      }
    }
  }
  return byFile;
}

/**
 * Milliseconds covered by the union of the intervals (nested or overlapping starts once).
 * @param {[number, number][]} intervals
 */
function coveredMs(intervals) {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [began, ended] of sorted) {
    if (ended <= end) continue;
    total += ended - Math.max(began, end);
    end = ended;
  }
  return total;
}

/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The table: the `count` slowest files, slowest first.
 * @param {{ file: string; wallMs: number; stackMs?: number; failed?: boolean }[]} files
 * @param {number} [count]
 * @returns {string}
 */
function slowestTable(files, count = 20) {
  const slowest = [...files].sort((a, b) => b.wallMs - a.wallMs).slice(0, count);
  if (slowest.length === 0) return '';
  const rows = slowest.map((f) => [
    seconds(f.wallMs),
    f.stackMs === undefined ? '-' : `${seconds(f.stackMs)} (${percent(f.stackMs, f.wallMs)})`,
    `${f.file}${f.failed ? '  (failed)' : ''}`,
  ]);
  const header = ['wall', 'starting stacks', 'file'];
  const widths = [0, 1].map((i) => Math.max(header[i].length, ...rows.map((r) => r[i].length)));
  const line = (/** @type {string[]} */ r) =>
    `  ${r[0].padStart(widths[0])}  ${r[1].padStart(widths[1])}  ${r[2]}`;
  const total = files.reduce((sum, f) => sum + f.wallMs, 0);
  return [
    `Slowest ${slowest.length} of ${files.length} test files (wall time of all: ${seconds(total)}, summed over workers):`,
    line(header),
    ...rows.map(line),
  ].join('\n');
}

/**
 * One line per stack started once for the whole run (RATESMITH_SHARED_STACK_STARTS's
 * JSON array of {what, began, ended}); '' for none or for what cannot be read.
 * @param {string | undefined} json
 * @returns {string}
 */
function sharedStackLines(json) {
  if (!json) return '';
  /** @type {unknown} */
  let starts;
  try {
    starts = JSON.parse(json);
  } catch {
    return '';
  }
  if (!Array.isArray(starts)) return '';
  return starts
    .filter((s) => s && typeof s.what === 'string' && s.ended >= s.began)
    .map(
      (s) =>
        `${s.what}: ${seconds(s.ended - s.began)} (started once for the run, before its files; in none of their figures)`,
    )
    .join('\n');
}

/**
 * The error of a run over its budget, naming its slowest files; undefined within it.
 * @param {{ file: string; wallMs: number }[]} files
 * @param {number} elapsedMs
 * @param {number} budgetMs
 * @returns {Error | undefined}
 */
function overBudget(files, elapsedMs, budgetMs) {
  if (!(budgetMs > 0) || elapsedMs <= budgetMs) return undefined;
  const names = [...files]
    .sort((a, b) => b.wallMs - a.wallMs)
    .slice(0, 5)
    .map((f) => `${f.file} (${seconds(f.wallMs)})`);
  return new Error(
    `the test run took ${seconds(elapsedMs)}, over its budget of ${seconds(budgetMs)} ` +
      `(docs/testing.md, "The time budget"); the slowest files: ${names.join(', ')}`,
  );
}

/** @param {number} part @param {number} whole */
function percent(part, whole) {
  return whole > 0 ? `${Math.round((100 * part) / whole)} %` : '-';
}

class SlowestFilesReporter {
  /**
   * @param {{ rootDir: string }} globalConfig
   * @param {{ count?: number; write?: (text: string) => void; budgetS?: number; startedMs?: number; now?: () => number }} [options]
   */
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.count = options.count ?? 20;
    this.write = options.write ?? ((/** @type {string} */ text) => process.stderr.write(text));
    this.now = options.now ?? Date.now;
    /** @type {string | undefined} */
    this.dir = undefined;
    /** @type {Error | undefined} */
    this.error = undefined;
    this.budgetMs = Number(options.budgetS ?? process.env[BUDGET_ENV] ?? 0) * 1000;
    this.startedMs = Number(options.startedMs ?? process.env[STARTED_ENV] ?? 0) || undefined;
    try {
      // Jest's workers are started after its reporters, so they inherit the variable.
      this.dir = mkdtempSync(join(tmpdir(), 'ratesmith-stack-starts-'));
      process.env[STACK_TIMINGS_ENV] = this.dir;
    } catch {
      this.dir = undefined;
    }
  }

  /**
   * @param {unknown} _contexts
   * @param {{ startTime?: number; testResults: { testFilePath: string; perfStats: { start: number; end: number }; numFailingTests: number; testExecError?: unknown }[] }} results
   */
  onRunComplete(_contexts, results) {
    try {
      const starts = this.dir ? readStackStarts(this.dir) : new Map();
      const files = results.testResults
        .filter((r) => r.perfStats && r.perfStats.end > r.perfStats.start)
        .map((r) => {
          const intervals = starts.get(r.testFilePath);
          return {
            file: relative(this.rootDir, r.testFilePath),
            wallMs: r.perfStats.end - r.perfStats.start,
            stackMs: intervals ? coveredMs(intervals) : undefined,
            failed: r.numFailingTests > 0 || Boolean(r.testExecError),
          };
        });
      const table = slowestTable(files, this.count);
      if (table) this.write(`\n${table}\n`);
      const shared = sharedStackLines(process.env[SHARED_STACK_STARTS_ENV]);
      // Read once: a watch mode's next run starts its shared stacks again.
      delete process.env[SHARED_STACK_STARTS_ENV];
      if (shared) this.write(`${table ? '' : '\n'}${shared}\n`);
      const started = this.startedMs ?? results.startTime ?? this.now();
      this.error = overBudget(files, this.now() - started, this.budgetMs);
      if (this.error) this.write(`\nOVER BUDGET: ${this.error.message}\n`);
    } catch (err) {
      this.write(`\nslowest-files reporter: no table (${String(err)})\n`);
    } finally {
      if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    }
  }

  /** Jest asks reporters for an error to fail the run with: only a run over its budget. */
  getLastError() {
    return this.error;
  }
}

module.exports = SlowestFilesReporter;
module.exports.SlowestFilesReporter = SlowestFilesReporter;
module.exports.slowestTable = slowestTable;
module.exports.coveredMs = coveredMs;
module.exports.overBudget = overBudget;
module.exports.readStackStarts = readStackStarts;
module.exports.sharedStackLines = sharedStackLines;
