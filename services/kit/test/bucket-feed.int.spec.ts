import { Kvm, type KV } from '@nats-io/kv';
import { startNatsServer, type RunningServer } from '@ratesmith/devstack';
import {
  BucketFeed,
  connectNats,
  createLogger,
  type FeedEntry,
  type NatsConnection,
} from '../src/index';

/**
 * BucketFeed (services/kit/src/bucket-feed.ts) on a real NATS server: every entry of
 * the bucket first, then each change once, and nothing while nothing changes.
 */
let nats: RunningServer;
let nc: NatsConnection;
beforeAll(async () => {
  nats = await startNatsServer({});
  nc = await connectNats({
    url: nats.url,
    name: 'bucket-feed-test',
    logger: createLogger('t', 'silent'),
  });
});
afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

/** Reads the feed into `seen` until stopped; answers the iteration's end (its error, if any). */
function follow(feed: BucketFeed, seen: FeedEntry[]): Promise<unknown> {
  return (async () => {
    for await (const entry of feed) seen.push(entry);
  })().then(
    () => undefined,
    (err: unknown) => err,
  );
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('not within time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const text = (entry: FeedEntry) => new TextDecoder().decode(entry.value);

it('gives every entry, then each change once, and waits quietly in between', async () => {
  const kv: KV = await new Kvm(nc).create('feed_a', { history: 1 });
  await kv.put('one', 'v1');
  await kv.put('two', 'v1');
  await kv.put('one', 'v2');
  const feed = new BucketFeed({ nc, bucket: 'feed_a', pollMs: 20 });
  const seen: FeedEntry[] = [];
  const ended = follow(feed, seen);
  await until(() => seen.length >= 2);
  // The first read: the last value of each key (history 1), not as changes.
  expect(seen.map((e) => [e.key, text(e), e.isUpdate])).toEqual([
    ['two', 'v1', false],
    ['one', 'v2', false],
  ]);
  // Nothing new for many polls: nothing given, and the feed is still there.
  await new Promise((r) => setTimeout(r, 300));
  expect(seen).toHaveLength(2);
  await kv.put('three', 'v1');
  await kv.delete('two');
  await until(() => seen.length >= 4);
  expect(seen.slice(2).map((e) => [e.key, e.operation, e.isUpdate])).toEqual([
    ['three', 'PUT', true],
    ['two', 'DEL', true],
  ]);
  expect(seen[2]!.revision).toBeGreaterThan(seen[1]!.revision);
  feed.stop();
  expect(await ended).toBeUndefined();
  expect(seen).toHaveLength(4);
});

it('waits on an empty bucket without failing, and gives its first entry as a change', async () => {
  const kv: KV = await new Kvm(nc).create('feed_b', { history: 1 });
  const feed = new BucketFeed({ nc, bucket: 'feed_b', pollMs: 20 });
  const seen: FeedEntry[] = [];
  const ended = follow(feed, seen);
  await new Promise((r) => setTimeout(r, 200));
  await kv.put('first', 'v1');
  await until(() => seen.length >= 1);
  expect(seen.map((e) => [e.key, text(e), e.isUpdate])).toEqual([['first', 'v1', true]]);
  feed.stop();
  expect(await ended).toBeUndefined();
});

it("looks at once when the writer's announcement comes, not at its next poll", async () => {
  const kv: KV = await new Kvm(nc).create('feed_c', { history: 1 });
  await kv.put('one', 'v1');
  // A poll far away: only the announcement can bring the change quickly.
  const feed = new BucketFeed({ nc, bucket: 'feed_c', pollMs: 60_000, wakeOn: 'feed_c.written' });
  const seen: FeedEntry[] = [];
  const ended = follow(feed, seen);
  await until(() => seen.length >= 1);
  await new Promise((r) => setTimeout(r, 100));
  const put = Date.now();
  await kv.put('two', 'v1');
  nc.publish('feed_c.written');
  await until(() => seen.length >= 2, 2000);
  expect(Date.now() - put).toBeLessThan(2000);
  expect(seen.map((e) => [e.key, e.isUpdate])).toEqual([
    ['one', false],
    ['two', true],
  ]);
  feed.stop();
  expect(await ended).toBeUndefined();
});
