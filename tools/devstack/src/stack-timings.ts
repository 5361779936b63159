import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How long each test file spent starting its stacks (NATS, FerretDB, the app, a
 * fault or cluster stack), for the slowest-files table that
 * tools/devstack/src/slowest-files-reporter.js prints at the end of every jest run.
 *
 * The reporter names a fresh folder in this variable before the workers start; each
 * start below appends one line (the test file, what, when it began and ended) to a
 * file of its process there. Outside jest, or when the variable is unset, nothing is
 * written. Starts that nest or overlap are merged by the reporter (it counts the
 * union of the intervals), so wrapping both a stack and the servers inside it is fine.
 */
export const STACK_TIMINGS_ENV = 'RATESMITH_STACK_TIMINGS_DIR';

/**
 * Stacks started once for a whole jest run, outside every test file (the browser
 * project's globalSetup starts the app its files share, frontend/test/shared-app.ts):
 * a JSON array of {what, began, ended} in this variable of jest's own process, where
 * globalSetup runs before the reporter is made. The reporter prints one line for each.
 */
export const SHARED_STACK_STARTS_ENV = 'RATESMITH_SHARED_STACK_STARTS';

export interface StackStart {
  /** The test file (absolute), as jest names it. */
  testPath: string;
  what: string;
  /** Epoch milliseconds. */
  began: number;
  ended: number;
}

/** The test file jest is running in this process now, if any. */
function currentTestPath(): string | undefined {
  const jestExpect = (globalThis as { expect?: { getState?: () => { testPath?: string } } }).expect;
  return jestExpect?.getState?.().testPath;
}

/** Appends one start to this process's file; never throws (a lost figure is no failure). */
export function recordStackStart(what: string, began: number, ended = Date.now()): void {
  const dir = process.env[STACK_TIMINGS_ENV];
  if (!dir) return;
  try {
    const testPath = currentTestPath();
    if (!testPath) return;
    const line: StackStart = { testPath, what, began, ended };
    appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
  } catch {
    // The table just shows less.
  }
}

/** Adds one start of a stack shared by the whole run (see SHARED_STACK_STARTS_ENV); never throws. */
export function recordSharedStackStart(what: string, began: number, ended = Date.now()): void {
  try {
    const earlier = JSON.parse(process.env[SHARED_STACK_STARTS_ENV] ?? '[]') as unknown[];
    process.env[SHARED_STACK_STARTS_ENV] = JSON.stringify([...earlier, { what, began, ended }]);
  } catch {
    process.env[SHARED_STACK_STARTS_ENV] = JSON.stringify([{ what, began, ended }]);
  }
}

/** Runs `start` and records how long it took (failed starts too). */
export async function timedStart<T>(what: string, start: () => Promise<T>): Promise<T> {
  const began = Date.now();
  try {
    return await start();
  } finally {
    recordStackStart(what, began);
  }
}

/**
 * `start` as the function a stack's module exports: each call runs it through
 * timedStart, so its duration lands in the slowest-files table.
 */
export function timed<A extends unknown[], T>(
  what: string,
  start: (...args: A) => Promise<T>,
): (...args: A) => Promise<T> {
  return (...args) => timedStart(what, () => start(...args));
}
