import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { create, fromBinary, toBinary, type DescMethod } from '@bufbuild/protobuf';
import { authV1 } from '@ratesmith/contracts';
import { AppError, createLogger, LANE_NICE, startLane, type Lane } from '@ratesmith/kit';

/**
 * Kit's lane (src/lane.ts, src/lane-thread.ts) with a real thread
 * (test/fixtures/lane-thread.js on the built kit): work declined until the thread
 * is ready, the deadline carried over, a thread's death refusing what it held and
 * pausing its restart, stop letting it answer first, the idle stop, its priority.
 */

const THREAD = join(__dirname, 'fixtures', 'lane-thread.js');
const getShop = authV1.AuthService.method.getShop;

let dir: string;
let lane: Lane;
const lines: string[] = [];
const logged = () => readFileSync(join(dir, 'log'), 'utf8').split('\n').filter(Boolean);

function startFixture(openMs: number, idle: number | 'kept' = 60_000): Lane {
  return startLane({
    name: 'test lane',
    file: THREAD,
    env: {
      ...process.env,
      LANE_FIXTURE_LOG: join(dir, 'log'),
      LANE_FIXTURE_OPEN_MS: String(openMs),
    },
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
    // getShop's requests of at least 10 bytes (a shop name of 8 characters and more).
    methods: { getShop: 10 },
    heapMb: 64,
    idleMs: idle === 'kept' ? undefined : idle,
    untilReady: 'decline',
    lostWork: 'refuse',
    restartPauseMs: 500,
    // The thread's questions (fixture's "ask" shops): "ask-late…" after 2 s, "ask-fail…" failing.
    onThreadQuestion: async (question) => {
      const shop = String(question.shop);
      if (shop.startsWith('ask-late')) await new Promise((r) => setTimeout(r, 2000));
      if (shop.startsWith('ask-fail')) throw new Error('no answer for it');
      return { type: 'echo', said: shop.toUpperCase() };
    },
  });
}

const ask = async (shop: string, deadline?: number, method: DescMethod = getShop) => {
  const reply = await lane.answer({
    method,
    data: toBinary(authV1.GetShopRequestSchema, create(authV1.GetShopRequestSchema, { shop })),
    encoding: undefined,
    limit: 1024 * 1024,
    requestId: 'r1',
    deadline,
  });
  return reply && fromBinary(authV1.GetShopResponseSchema, reply.data).shop;
};

/** Asks until the lane takes the work (its thread ready), at most 10 s. */
async function whenTaken(shop: string, deadline?: number): Promise<string> {
  const until = Date.now() + 10_000;
  for (;;) {
    const answered = await ask(shop, deadline);
    if (answered !== undefined) return answered;
    if (Date.now() > until) throw new Error('the lane never took the work');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kit-lane-'));
  lines.length = 0;
});

afterEach(async () => {
  await lane?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('declines work until its thread is ready, then answers it there with the deadline', async () => {
  lane = startFixture(400);
  // The first call starts the thread, which is not ready: this thread does the work.
  expect(await ask('a.myshopify.com')).toBeUndefined();
  expect(await whenTaken('a.myshopify.com', Date.now() + 5000)).toBe('a.myshopify.com|deadline');
  expect(await ask('b.myshopify.com')).toBe('b.myshopify.com|none');
  // Only the lane's methods go there, and only requests of their least size.
  expect(
    await ask('c.myshopify.com', undefined, authV1.AuthService.method.getShopCurrency),
  ).toBeUndefined();
  expect(await ask('x.io')).toBeUndefined();
  // A past deadline is refused there, as answerRequest refuses it here.
  await expect(ask('d.myshopify.com', Date.now() - 1)).rejects.toMatchObject({
    kind: 'unavailable',
  });
  expect(logged()).toEqual(['started']);
});

it("answers its thread's own questions from the service's thread, or not, within the thread's wait", async () => {
  lane = startFixture(0);
  expect(await whenTaken('ask.myshopify.com')).toBe('ASK.MYSHOPIFY.COM|asked');
  expect(await ask('ask-fail.myshopify.com')).toBe('no answer for it|unanswered');
  expect(await ask('ask-late.myshopify.com')).toBe('late|asked');
  // Two at once each get their own answer.
  expect(await Promise.all([ask('ask-one.myshopify.com'), ask('ask-two.myshopify.com')])).toEqual([
    'ASK-ONE.MYSHOPIFY.COM|asked',
    'ASK-TWO.MYSHOPIFY.COM|asked',
  ]);
});

it('runs at LANE_NICE', async () => {
  lane = startFixture(0);
  await whenTaken('a.myshopify.com');
  const nice = readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
  expect(nice.filter((n) => n === LANE_NICE)).toHaveLength(1);
});

it('refuses the work a dying thread held, pauses, then starts a new one', async () => {
  lane = startFixture(0);
  await whenTaken('a.myshopify.com');
  const crashed = ask('crash.myshopify.com');
  await expect(crashed).rejects.toBeInstanceOf(AppError);
  await expect(crashed).rejects.toMatchObject({ kind: 'unavailable' });
  expect(lines.some((l) => l.includes('test lane exited'))).toBe(true);
  // Within the pause no thread starts: the work stays here.
  expect(await ask('b.myshopify.com')).toBeUndefined();
  expect(logged()).toEqual(['started']);
  await new Promise((r) => setTimeout(r, 600));
  expect(await whenTaken('b.myshopify.com')).toBe('b.myshopify.com|none');
  expect(logged()).toEqual(['started', 'started']);
});

it('lets the thread answer what it holds before it stops', async () => {
  lane = startFixture(0);
  await whenTaken('a.myshopify.com');
  const slow = ask('slow.myshopify.com');
  await new Promise((r) => setTimeout(r, 50));
  await lane.stop();
  expect(await slow).toBe('slow.myshopify.com|none');
  expect(logged()).toEqual(['started', 'stopped']);
  // Stopped: nothing more is handed over.
  expect(await ask('b.myshopify.com')).toBeUndefined();
});

it('stops its thread after its idle time', async () => {
  lane = startFixture(0, 300);
  await whenTaken('a.myshopify.com');
  await new Promise((r) => setTimeout(r, 800));
  expect(lines.some((l) => l.includes('test lane idle: stopped'))).toBe(true);
  expect(logged()).toEqual(['started', 'stopped']);
});

it('starts a kept lane (no idle time) with the service, before any work', async () => {
  lane = startFixture(0, 'kept');
  expect(await lane.whenReady(10_000)).toBe(true);
  const until = Date.now() + 10_000;
  while (!existsSync(join(dir, 'log')) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 50));
  expect(logged()).toEqual(['started']);
  expect(await whenTaken('a.myshopify.com')).toBe('a.myshopify.com|none');
  await new Promise((r) => setTimeout(r, 500));
  expect(lines.some((l) => l.includes('idle'))).toBe(false);
});

it('says a lane is not ready after the wait it was given, while its thread opens', async () => {
  lane = startFixture(5000, 'kept');
  const started = Date.now();
  expect(await lane.whenReady(300)).toBe(false);
  expect(Date.now() - started).toBeGreaterThanOrEqual(250);
});
