import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '@ratesmith/kit';
import { startPreviewLane } from './lane';

/** The lane's supervisor, with a stand-in thread that crashes after its first start. */
it('starts the lane again after it exits unasked, and stops it when asked', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lane-'));
  const starts = join(dir, 'starts');
  const lines: string[] = [];
  const logger = createLogger(
    'test',
    'info',
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  const lane = startPreviewLane(logger, {
    file: join(__dirname, '..', '..', 'test', 'fixtures', 'lane-fails-once.js'),
    env: { LANE_FIXTURE_STARTS: starts },
  });
  try {
    await lane.ready;
    const deadline = Date.now() + 10_000;
    while (readFileSync(starts, 'utf8').split('\n').filter(Boolean).length < 2) {
      if (Date.now() > deadline) throw new Error('the lane was not started again');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(lines.some((l) => l.includes('preview lane exited; starting it again'))).toBe(true);
  } finally {
    await lane.stop();
  }
  // Stopped: no third start.
  await new Promise((r) => setTimeout(r, 1500));
  expect(readFileSync(starts, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
  rmSync(dir, { recursive: true, force: true });
});

it('fails the start when the lane exits before it is ready', async () => {
  const lane = startPreviewLane(createLogger('test', 'silent'), {
    file: join(__dirname, '..', '..', 'test', 'fixtures', 'lane-fails-once.js'),
    // No record of starts: the thread throws before it says it is ready.
    env: {},
  });
  await expect(lane.ready).rejects.toThrow(/the preview lane did not start: .*path/);
  await lane.stop();
});
