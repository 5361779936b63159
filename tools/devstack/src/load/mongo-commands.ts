import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ferretDbBinary, freePort, stopProcess, waitForPort, type RunningServer } from '../servers';

/**
 * FerretDB with its debug log kept in a file: it prints every wire-protocol
 * request, so a test can count the MongoDB commands one API call caused
 * (e.g. the reads and writes of a Save All) without touching the service.
 * Much slower than startFerretDb's: only for counting, never under load.
 */
export interface LoggedMongo extends RunningServer {
  /** Where the log ends now: pass it to `commandsSince`. */
  mark(): number;
  /** Command names (find, update, insert, ...) requested since `mark`, in order. */
  commandsSince(mark: number): string[];
}

/** Commands a driver sends on its own (handshakes, heartbeats, sessions): not the app's. */
const HOUSEKEEPING = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'endSessions', 'buildInfo']);

export async function startFerretDbWithCommandLog(): Promise<LoggedMongo> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ratesmith-ferretdb-log-'));
  const logFile = join(dataDir, 'ferretdb.log');
  const port = await freePort();
  const out = openSync(logFile, 'a');
  const child = spawn(
    ferretDbBinary(),
    [
      '--handler=sqlite',
      `--sqlite-url=file:${dataDir}/`,
      `--state-dir=${dataDir}`,
      `--listen-addr=127.0.0.1:${port}`,
      `--debug-addr=127.0.0.1:${await freePort()}`,
      '--telemetry=disable',
      '--log-level=debug',
    ],
    { stdio: ['ignore', out, out] },
  );
  await waitForPort(port, 30_000, child);
  return {
    url: `mongodb://127.0.0.1:${port}/`,
    port,
    dataDir,
    process: child,
    stop: async () => {
      await stopProcess(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
    mark: () => statSync(logFile).size,
    commandsSince: (mark) => {
      const text = readFileSync(logFile).subarray(mark).toString('utf8');
      // A request's first document starts with its command: `"Document": {\n "find": ...`.
      return [...text.matchAll(/Request message:[\s\S]*?"Document": \{\s*"(\w+)"/g)]
        .map((m) => m[1]!)
        .filter((name) => !HOUSEKEEPING.has(name));
    },
  };
}
