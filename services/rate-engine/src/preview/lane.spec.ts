import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { rateEngineV1 } from '@ratesmith/contracts';
import { AppError, createLogger } from '@ratesmith/kit';
import { startPreviewLane, type PreviewLane } from './lane';

/**
 * The lane's supervisor (started with its first work, stopped when idle, answers
 * relayed, a dead or slow lane's work left to the engine's thread), with a stand-in
 * thread (test/fixtures/stand-in-lane.js) in place of lane-worker.ts.
 */

let dir: string;
let lane: PreviewLane;
const lines: string[] = [];
const snapshots = new Map<string, Uint8Array>();

const starts = () => readFileSync(join(dir, 'starts'), 'utf8').split('\n').filter(Boolean).length;
const bytes = (...values: number[]) => new Uint8Array(values);
const preview = () =>
  lane.answer({
    method: rateEngineV1.RateEngineService.method.previewRates,
    data: bytes(),
    encoding: undefined,
    limit: 1024,
    requestId: 'r1',
    deadline: undefined,
  });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lane-'));
  lines.length = 0;
  lane = startPreviewLane({
    logger: createLogger(
      'test',
      'info',
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    ),
    readSnapshot: async (shop) => {
      const value = snapshots.get(shop);
      return value && { value, writtenAt: 1 };
    },
    thread: {
      file: join(__dirname, '..', '..', 'test', 'fixtures', 'stand-in-lane.js'),
      env: { LANE_FIXTURE_STARTS: join(dir, 'starts') },
    },
    idleMs: 300,
    restartPauseMs: 500,
  });
});

afterEach(async () => {
  await lane.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('starts with its first work and stops after its idle time, then starts again', async () => {
  expect(() => starts()).toThrow();
  expect(await lane.decode(bytes(1, 0, 0))).toEqual({ decoded: 3 });
  expect(await lane.decode(bytes(1))).toEqual({ decoded: 1 });
  expect(starts()).toBe(1);
  await new Promise((r) => setTimeout(r, 800));
  expect(lines.some((l) => l.includes('preview lane idle: stopped'))).toBe(true);
  expect(await lane.decode(bytes(1))).toEqual({ decoded: 1 });
  expect(starts()).toBe(2);
});

it('relays a preview: the snapshot it asks for is read here, its error comes back as AppError', async () => {
  snapshots.set('shop-a', bytes(7, 8, 9));
  expect(await preview()).toEqual({ data: bytes(7, 8, 9), gzipped: false });
  snapshots.delete('shop-a');
  const refused = preview();
  await expect(refused).rejects.toBeInstanceOf(AppError);
  await expect(refused).rejects.toMatchObject({ kind: 'unavailable', message: 'No snapshot.' });
});

it('leaves the work of a lane that died to the engine, and starts a new one after a pause', async () => {
  const inFlight = preview();
  snapshots.set('shop-a', bytes(1));
  // The decode ends the thread: both it and the preview waiting on it are answered undefined.
  const crashed = lane.decode(bytes(2));
  expect(await crashed).toBeUndefined();
  expect(await inFlight).toBeUndefined();
  expect(lines.some((l) => l.includes('preview lane exited'))).toBe(true);
  // Within the pause the engine's thread does the work: no thread is started.
  expect(await lane.decode(bytes(1))).toBeUndefined();
  expect(await preview()).toBeUndefined();
  expect(starts()).toBe(1);
  await new Promise((r) => setTimeout(r, 600));
  expect(await lane.decode(bytes(1))).toEqual({ decoded: 1 });
  expect(starts()).toBe(2);
});

it('decodes here what the lane has not decoded within 2 s', async () => {
  const started = Date.now();
  expect(await lane.decode(bytes(3))).toBeUndefined();
  expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
});
