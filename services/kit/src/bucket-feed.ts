import { setTimeout as sleep } from 'node:timers/promises';
import { jetstreamManager, type StoredMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

/** One message of the bucket's stream as a key-value entry (the part the watcher reads). */
export interface FeedEntry {
  key: string;
  operation: 'PUT' | 'DEL' | 'PURGE';
  /** The stream sequence: the bucket's revision of the entry. */
  revision: number;
  created: Date;
  value: Uint8Array;
  length: number;
  /** Written after the feed started (a change), not part of its first read. */
  isUpdate: boolean;
}

/** Messages asked for at once: one reply stream of at most this many. */
const BATCH = 1024;

/**
 * Every entry of a NATS KV bucket, then every change, read with batched direct
 * gets of its stream by sequence (`$JS.API.DIRECT.GET`), never through a
 * consumer. A consumer would need the grant to create consumers on the
 * bucket's stream, and that grant cannot tell a pull consumer from a push one
 * whose `deliver_subject` the server then publishes every snapshot to, past
 * the creator's own publish permissions (docs/security.md). Direct gets answer
 * only the asker's inbox.
 *
 * The first read goes from the stream's first sequence to its last when the
 * feed started; after it, the feed asks for what follows the last sequence it
 * gave at once when the writer announces a change (`wakeOn`), else every
 * `pollMs` while nothing new comes (at once while batches come full).
 * Iterating again after `stop()` ends at once.
 */
export class BucketFeed implements AsyncIterable<FeedEntry> {
  private stopped = false;
  /** Asked to look again before its poll is due (the writer announced a change). */
  private nudged = false;
  private wake: AbortController = new AbortController();

  constructor(
    private readonly deps: {
      nc: NatsConnection;
      bucket: string;
      /** How long to wait before asking again when there was nothing new. */
      pollMs: number;
      /** Bound on each JetStream API call. */
      timeoutMs?: number;
      /**
       * A subject the bucket's writer publishes on after each write: a message there makes
       * the feed look at once, so a change arrives within milliseconds, not at the next poll
       * (the poll stays, for a message lost on the way).
       */
      wakeOn?: string;
    },
  ) {}

  stop(): void {
    this.stopped = true;
    this.wake.abort();
  }

  /** Looks for changes now rather than at the next poll. */
  nudge(): void {
    this.nudged = true;
    this.wake.abort();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<FeedEntry> {
    const stream = `KV_${this.deps.bucket}`;
    const prefix = `$KV.${this.deps.bucket}.`;
    const jsm = await jetstreamManager(this.deps.nc, { timeout: this.deps.timeoutMs ?? 5000 });
    const { state } = await jsm.streams.info(stream);
    const firstReadEnds = state.last_seq;
    const first = Math.max(state.first_seq, 1);
    const wakeOn = this.deps.wakeOn;
    const sub = wakeOn ? this.deps.nc.subscribe(wakeOn, { callback: () => this.nudge() }) : null;
    try {
      yield* this.follow(jsm, stream, prefix, firstReadEnds, first);
    } finally {
      sub?.unsubscribe();
    }
  }

  private async *follow(
    jsm: Awaited<ReturnType<typeof jetstreamManager>>,
    stream: string,
    prefix: string,
    firstReadEnds: number,
    from: number,
  ): AsyncGenerator<FeedEntry> {
    let next = from;
    while (!this.stopped) {
      this.nudged = false;
      let got = 0;
      const batch = await jsm.direct.getBatch(stream, { seq: next, batch: BATCH });
      try {
        for await (const msg of batch) {
          if (this.stopped) return;
          got++;
          next = msg.seq + 1;
          yield toEntry(msg, prefix, msg.seq > firstReadEnds);
        }
      } catch (err) {
        // Nothing at or after `next` yet: the server says "message not found" (404).
        if (!isNothingYet(err)) throw err;
      }
      if (got < BATCH && !this.stopped && !this.nudged) {
        this.wake = new AbortController();
        await sleep(this.deps.pollMs, undefined, { signal: this.wake.signal }).catch(() => {});
      }
    }
  }
}

/** The direct get's answer when no message is at or after the sequence asked for. */
function isNothingYet(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 404;
}

function toEntry(msg: StoredMsg, prefix: string, isUpdate: boolean): FeedEntry {
  const op = msg.header.get('KV-Operation');
  return {
    key: msg.subject.startsWith(prefix) ? msg.subject.slice(prefix.length) : msg.subject,
    operation: op === 'DEL' || op === 'PURGE' ? op : 'PUT',
    revision: msg.seq,
    created: msg.time,
    value: msg.data,
    length: msg.data.length,
    isUpdate,
  };
}
