// Types of slowest-files-reporter.js (plain CommonJS: jest loads reporters untransformed).

export interface FileTiming {
  /** Relative to the repository. */
  file: string;
  wallMs: number;
  /** Time spent starting stacks; undefined where the file started none through the helpers. */
  stackMs?: number;
  failed?: boolean;
}

/** The `count` (20) slowest files as a printable table, slowest first; '' for none. */
export function slowestTable(files: FileTiming[], count?: number): string;

/** Milliseconds covered by the union of [began, ended] intervals. */
export function coveredMs(intervals: [number, number][]): number;

/** The error of a run that took longer than its budget, naming its 5 slowest files; undefined within it. */
export function overBudget(
  files: { file: string; wallMs: number }[],
  elapsedMs: number,
  budgetMs: number,
): Error | undefined;

/** One line per stack started once for the whole run (RATESMITH_SHARED_STACK_STARTS's JSON); '' for none. */
export function sharedStackLines(json: string | undefined): string;

/** The stack starts recorded in a folder, per test file. */
export function readStackStarts(dir: string): Map<string, [number, number][]>;

export class SlowestFilesReporter {
  constructor(
    globalConfig: { rootDir: string },
    options?: {
      count?: number;
      write?: (text: string) => void;
      /** Default RATESMITH_TEST_BUDGET_S; 0 or unset: no budget. */
      budgetS?: number;
      /** Epoch ms the run began; default RATESMITH_TEST_STARTED_MS, else jest's start. */
      startedMs?: number;
      now?: () => number;
    },
  );
  readonly dir: string | undefined;
  onRunComplete(
    contexts: unknown,
    results: {
      startTime?: number;
      testResults: {
        testFilePath: string;
        perfStats: { start: number; end: number };
        numFailingTests: number;
        testExecError?: unknown;
      }[];
    },
  ): void;
  getLastError(): Error | undefined;
}
