import { createServer, connect, type Socket } from 'node:net';
import { deserialize, ObjectId, type Document } from 'bson';
import { freePort, startFerretDb, type RunningServer } from '../servers';

/**
 * FerretDB behind a pass-through proxy that reads the name of every command
 * the clients send (the first key of an OP_MSG body), so a test can count the
 * MongoDB commands one API call caused without touching the services. The
 * bytes pass unchanged, so it costs the services nothing measurable (FerretDB's
 * own debug log, used before, printed every document and slowed each command
 * by seconds once a ruleset held 100 filters).
 */
export interface LoggedMongo extends RunningServer {
  /** How many commands were seen so far: pass it to `commandsSince`. */
  mark(): number;
  /** Command names (find, update, insert, ...) sent since `mark`, in order. */
  commandsSince(mark: number): string[];
  /** Bytes FerretDB has answered so far (what the services had to decode). */
  replyBytes(): number;
  /**
   * The commands sent since `mark` as `command collection` (`find versions`), each
   * with the ms until FerretDB's reply (undefined while none came): where its time goes.
   */
  timesSince(mark: number): { command: string; ms: number | undefined; scans: boolean }[];
  /**
   * Holds FerretDB's replies to `target` (`findAndModify version_counters`) for `ms`
   * before the client gets them, until the returned function is called: whatever the
   * client does after that command waits, so a test can tell what an answer awaited.
   */
  hold(target: string, ms: number): () => void;
}

/** Commands a driver sends on its own (handshakes, heartbeats, sessions): not the app's. */
const HOUSEKEEPING = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'endSessions', 'buildInfo']);

const OP_MSG = 2013;

/** The command of one OP_MSG: the first key of its body section (kind 0). */
export function commandOf(message: Buffer): string | undefined {
  if (message.readInt32LE(12) !== OP_MSG) return undefined;
  let at = 20; // header (16) + flagBits (4)
  while (at < message.length) {
    const kind = message[at]!;
    if (kind === 0) {
      // BSON: int32 size, then the first element: type byte, name as a C string.
      const nameStart = at + 1 + 4 + 1;
      return message.toString('latin1', nameStart, message.indexOf(0, nameStart));
    }
    // Kind 1 (a document sequence): int32 size counts itself and its contents.
    at += 1 + message.readInt32LE(at + 1);
  }
  return undefined;
}

/** The collection a command names (the string value of its first key), if it names one. */
export function collectionOf(message: Buffer): string | undefined {
  if (message.readInt32LE(12) !== OP_MSG || message[20] !== 0) return undefined;
  const typeAt = 20 + 1 + 4;
  if (message[typeAt] !== 0x02) return undefined; // not a string
  const valueAt = message.indexOf(0, typeAt + 1) + 1;
  const length = message.readInt32LE(valueAt);
  return message.toString('utf8', valueAt + 4, valueAt + 4 + length - 1);
}

/** The sections of an OP_MSG: its body, and each document sequence by its name. */
function sectionsOf(message: Buffer): { body?: Document; sequences: Record<string, Document[]> } {
  const sequences: Record<string, Document[]> = {};
  let body: Document | undefined;
  const end = message.readInt32LE(0) - (message.readInt32LE(16) & 1 ? 4 : 0);
  let at = 20;
  while (at < end) {
    const kind = message[at]!;
    if (kind === 0) {
      const size = message.readInt32LE(at + 1);
      body = deserialize(message.subarray(at + 1, at + 1 + size));
      at += 1 + size;
    } else {
      const size = message.readInt32LE(at + 1);
      const stop = at + 1 + size;
      const nameEnd = message.indexOf(0, at + 5);
      const docs: Document[] = [];
      for (let d = nameEnd + 1; d < stop; d += message.readInt32LE(d))
        docs.push(deserialize(message.subarray(d, d + message.readInt32LE(d))));
      sequences[message.toString('latin1', at + 5, nameEnd)] = docs;
      at = stop;
    }
  }
  return { body, sequences };
}

/** A filter FerretDB on SQLite hands to SQLite: `_id` alone, equal to a string or an ObjectId. */
function byIdAlone(filter: unknown): boolean {
  if (!filter || typeof filter !== 'object') return false;
  const keys = Object.keys(filter);
  const id = (filter as { _id?: unknown })._id;
  return keys.length === 1 && (typeof id === 'string' || id instanceof ObjectId);
}

/**
 * Whether FerretDB (1.x, SQLite) reads every document of the collection for this
 * command: its filter is anything but `_id` alone (FerretDB's
 * `internal/backends/sqlite/collection.go` pushes down only that). Inserts and
 * commands without a filter scan nothing.
 */
export function scansCollection(message: Buffer): boolean {
  if (message.readInt32LE(12) !== OP_MSG) return false;
  const { body, sequences } = sectionsOf(message);
  if (!body) return false;
  const filters = (list: Document[] | undefined) => (list ?? []).map((d) => d.q as unknown);
  const command = Object.keys(body)[0];
  const queried =
    command === 'find'
      ? [body.filter]
      : command === 'findAndModify' || command === 'count'
        ? [body.query]
        : command === 'update'
          ? filters(body.updates ?? sequences.updates)
          : command === 'delete'
            ? filters(body.deletes ?? sequences.deletes)
            : command === 'aggregate'
              ? [undefined]
              : [];
  return queried.some((filter) => !byIdAlone(filter));
}

/** Splits a client's byte stream into wire messages (each starts with its int32 length). */
function messageReader(onMessage: (message: Buffer) => void) {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 16) {
      const length = pending.readInt32LE(0);
      if (pending.length < length) return;
      onMessage(pending.subarray(0, length));
      pending = pending.subarray(length);
    }
  };
}

export async function startFerretDbWithCommandLog(): Promise<LoggedMongo> {
  const ferret = await startFerretDb();
  const commands: string[] = [];
  const timed: { command: string; sentAt: number; ms: number | undefined; scans: boolean }[] = [];
  let replyBytes = 0;
  const held = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(ferret.port, '127.0.0.1');
    sockets.add(client).add(upstream);
    // This connection's commands waiting for their reply, by request id.
    const waiting = new Map<number, (typeof timed)[number]>();
    const read = messageReader((message) => {
      const name = commandOf(message);
      if (!name || HOUSEKEEPING.has(name)) return;
      commands.push(name);
      const entry = {
        command: `${name} ${collectionOf(message) ?? ''}`.trim(),
        sentAt: performance.now(),
        ms: undefined,
        scans: scansCollection(message),
      };
      timed.push(entry);
      waiting.set(message.readInt32LE(4), entry);
    });
    // Replies reach the client whole and in order; a held one delays those behind it.
    let delivered = Promise.resolve();
    const readReply = messageReader((reply) => {
      const entry = waiting.get(reply.readInt32LE(8));
      const holdMs = entry ? held.get(entry.command) : undefined;
      if (entry) {
        waiting.delete(reply.readInt32LE(8));
        entry.ms = performance.now() - entry.sentAt;
      }
      delivered = delivered.then(async () => {
        if (holdMs) await new Promise((resolve) => setTimeout(resolve, holdMs));
        if (!client.destroyed) client.write(reply);
      });
    });
    client.on('data', (chunk: Buffer) => {
      read(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      replyBytes += chunk.length;
      readReply(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `mongodb://127.0.0.1:${port}/`,
    port,
    dataDir: ferret.dataDir,
    process: ferret.process,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ferret.stop();
    },
    mark: () => commands.length,
    commandsSince: (mark) => commands.slice(mark),
    replyBytes: () => replyBytes,
    timesSince: (mark) =>
      timed.slice(mark).map(({ command, ms, scans }) => ({ command, ms, scans })),
    hold: (target, ms) => {
      held.set(target, ms);
      return () => held.delete(target);
    },
  };
}
