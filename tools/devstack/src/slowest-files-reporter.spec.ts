import { existsSync } from 'node:fs';
import {
  SlowestFilesReporter,
  coveredMs,
  overBudget,
  sharedStackLines,
  slowestTable,
  type FileTiming,
} from './slowest-files-reporter';
import {
  SHARED_STACK_STARTS_ENV,
  STACK_TIMINGS_ENV,
  recordSharedStackStart,
  recordStackStart,
  timedStart,
} from './stack-timings';

describe('slowestTable', () => {
  const files: FileTiming[] = [
    { file: 'services/kit/test/rpc.int.spec.ts', wallMs: 12_340, stackMs: 3_000 },
    { file: 'proto/src/filters/limits.spec.ts', wallMs: 800 },
    { file: 'frontend/test/editor.int.spec.ts', wallMs: 95_250, stackMs: 31_000, failed: true },
    { file: 'charts/test/alerts.int.spec.ts', wallMs: 2_070 },
  ];

  it('lists the slowest first, with the share spent starting stacks', () => {
    expect(slowestTable(files).split('\n')).toEqual([
      'Slowest 4 of 4 test files (wall time of all: 110.5 s, summed over workers):',
      '    wall  starting stacks  file',
      '  95.3 s    31.0 s (33 %)  frontend/test/editor.int.spec.ts  (failed)',
      '  12.3 s     3.0 s (24 %)  services/kit/test/rpc.int.spec.ts',
      '   2.1 s                -  charts/test/alerts.int.spec.ts',
      '   0.8 s                -  proto/src/filters/limits.spec.ts',
    ]);
  });

  it('keeps only `count` files and prints nothing for none', () => {
    const table = slowestTable(files, 2).split('\n');
    expect(table[0]).toBe(
      'Slowest 2 of 4 test files (wall time of all: 110.5 s, summed over workers):',
    );
    expect(table.slice(2).map((row) => row.trim().split(/\s+/).pop())).toEqual([
      '(failed)',
      'services/kit/test/rpc.int.spec.ts',
    ]);
    expect(slowestTable([])).toBe('');
  });

  it('shows 20 by default', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ file: `f${i}.spec.ts`, wallMs: i }));
    expect(slowestTable(many).split('\n')).toHaveLength(22);
  });
});

describe('sharedStackLines', () => {
  it('lists each start in order and skips what is not one', () => {
    expect(
      sharedStackLines(
        JSON.stringify([
          { what: 'shared browser app', began: 0, ended: 12_000 },
          { what: 'backwards', began: 5, ended: 1 },
          { began: 0, ended: 1 },
          { what: 'a second one', began: 0, ended: 500 },
        ]),
      ).split('\n'),
    ).toEqual([
      'shared browser app: 12.0 s (started once for the run, before its files; in none of their figures)',
      'a second one: 0.5 s (started once for the run, before its files; in none of their figures)',
    ]);
    for (const nothing of [undefined, '', 'not json', '{}', '[]'])
      expect(sharedStackLines(nothing)).toBe('');
  });
});

describe('coveredMs', () => {
  it('counts nested and overlapping starts once', () => {
    // The app (0-10) around its NATS (1-3) and FerretDB (2-5); then a second stack (20-25).
    expect(
      coveredMs([
        [0, 10],
        [1, 3],
        [2, 5],
        [20, 25],
        [22, 30],
      ]),
    ).toBe(20);
    expect(coveredMs([])).toBe(0);
  });
});

describe('SlowestFilesReporter', () => {
  const before = process.env[STACK_TIMINGS_ENV];
  afterEach(() => {
    if (before === undefined) delete process.env[STACK_TIMINGS_ENV];
    else process.env[STACK_TIMINGS_ENV] = before;
  });

  it('reads what the devstack helpers recorded for each file, then removes its folder', async () => {
    const printed: string[] = [];
    const reporter = new SlowestFilesReporter(
      { rootDir: '/' },
      { write: (text) => printed.push(text) },
    );
    expect(process.env[STACK_TIMINGS_ENV]).toBe(reporter.dir);
    const self = expect.getState().testPath!;
    const t0 = Date.now();
    recordStackStart('NATS', t0 - 4_000, t0 - 1_000);
    recordStackStart('FerretDB', t0 - 3_000, t0);
    await timedStart('nothing', async () => undefined);
    reporter.onRunComplete(undefined, {
      testResults: [
        { testFilePath: self, perfStats: { start: t0 - 10_000, end: t0 }, numFailingTests: 0 },
        {
          testFilePath: '/other.spec.ts',
          perfStats: { start: t0 - 2_000, end: t0 },
          numFailingTests: 1,
        },
      ],
    });
    const rows = printed.join('').trim().split('\n');
    expect(rows[0]).toBe(
      'Slowest 2 of 2 test files (wall time of all: 12.0 s, summed over workers):',
    );
    expect(rows[2]).toMatch(
      /^ {2}10\.0 s {5}4\.0 s \(40 %\) {2}.*slowest-files-reporter\.spec\.ts$/,
    );
    expect(rows[3]).toBe('   2.0 s                -  other.spec.ts  (failed)');
    expect(existsSync(reporter.dir!)).toBe(false);
  });

  it('fails a run over its budget, naming the slowest files; a run within it passes', () => {
    const printed: string[] = [];
    const results = (startTime: number) => ({
      startTime,
      testResults: [
        { testFilePath: '/a.spec.ts', perfStats: { start: 0, end: 700_000 }, numFailingTests: 0 },
        { testFilePath: '/b.spec.ts', perfStats: { start: 0, end: 900_000 }, numFailingTests: 0 },
      ],
    });
    const reporter = (options: { startedMs?: number } = {}) =>
      new SlowestFilesReporter(
        { rootDir: '/' },
        { write: (t) => printed.push(t), budgetS: 1500, now: () => 2_000_000, ...options },
      );
    const over = reporter();
    over.onRunComplete(undefined, results(2_000_000 - 1_501_000));
    expect(over.getLastError()?.message).toBe(
      'the test run took 1501.0 s, over its budget of 1500.0 s (docs/testing.md, "The time ' +
        'budget"); the slowest files: b.spec.ts (900.0 s), a.spec.ts (700.0 s)',
    );
    expect(printed.join('')).toContain('\nOVER BUDGET: the test run took 1501.0 s');
    const within = reporter();
    within.onRunComplete(undefined, results(2_000_000 - 1_500_000));
    expect(within.getLastError()).toBeUndefined();
    // A run of several jest commands counts from the first one's start.
    const phased = reporter({ startedMs: 2_000_000 - 1_600_000 });
    phased.onRunComplete(undefined, results(2_000_000 - 100_000));
    expect(phased.getLastError()?.message).toMatch(/^the test run took 1600\.0 s/);
    expect(overBudget([], 10, 0)).toBeUndefined();
  });

  it('prints a line for each stack the run started once, outside the files, and forgets them', () => {
    const shared = process.env[SHARED_STACK_STARTS_ENV];
    try {
      delete process.env[SHARED_STACK_STARTS_ENV];
      recordSharedStackStart('shared browser app', 1_000, 15_250);
      const printed: string[] = [];
      const reporter = new SlowestFilesReporter(
        { rootDir: '/' },
        { write: (t) => printed.push(t) },
      );
      reporter.onRunComplete(undefined, {
        testResults: [
          { testFilePath: '/a.spec.ts', perfStats: { start: 0, end: 2_000 }, numFailingTests: 0 },
        ],
      });
      expect(printed.join('').trim().split('\n').pop()).toBe(
        'shared browser app: 14.3 s (started once for the run, before its files; in none of their figures)',
      );
      expect(process.env[SHARED_STACK_STARTS_ENV]).toBeUndefined();
    } finally {
      if (shared === undefined) delete process.env[SHARED_STACK_STARTS_ENV];
      else process.env[SHARED_STACK_STARTS_ENV] = shared;
    }
  });

  it('never throws: a broken result becomes one line', () => {
    const printed: string[] = [];
    const reporter = new SlowestFilesReporter({ rootDir: '/' }, { write: (t) => printed.push(t) });
    expect(() => reporter.onRunComplete(undefined, {} as never)).not.toThrow();
    expect(printed.join('')).toMatch(/^\nslowest-files reporter: no table \(TypeError: .*\)\n$/);
    expect(reporter.getLastError()).toBeUndefined();
  });
});
