import { figuresByRoute, formatFigures, openLoop } from '../../src/load/generate';
import { startLoadEngine, type LoadEngine } from './engine';

/**
 * R1 (docs/reliability.md): the rate engine answers signed callbacks at
 * 100 requests a second. npm test: 10 s, no error, figures printed;
 * `npm run test:load`: 60 s and the target (p99 ≤ 300 ms, max ≤ 1 s).
 */
const FULL = process.env.LOAD_FULL === '1';
const SECONDS = FULL ? 60 : 10;

let engine: LoadEngine;
beforeAll(async () => {
  engine = await startLoadEngine();
}, 60_000);
afterAll(() => engine?.stop());

it(`R1: the rate engine answers 100 signed callbacks/s for ${SECONDS} s, all 2xx`, async () => {
  const result = await openLoop({
    rate: 100,
    durationMs: SECONDS * 1000,
    next: () => engine.callback,
  });
  const [figures] = figuresByRoute(result.samples);
  console.log(`R1, 100 req/s for ${SECONDS} s:\n${formatFigures([figures!])}`);
  const non2xx = result.samples.filter((s) => s.status < 200 || s.status >= 300);
  expect(non2xx.slice(0, 5)).toEqual([]);
  expect(result.samples.length).toBe(100 * SECONDS);
  if (FULL) {
    expect(figures!.p99).toBeLessThanOrEqual(300);
    expect(figures!.max).toBeLessThanOrEqual(1000);
  }
}, 120_000);
