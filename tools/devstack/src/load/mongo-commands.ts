import { createServer, connect, type Socket } from 'node:net';
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
  let replyBytes = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(ferret.port, '127.0.0.1');
    sockets.add(client).add(upstream);
    const read = messageReader((message) => {
      const name = commandOf(message);
      if (name && !HOUSEKEEPING.has(name)) commands.push(name);
    });
    client.on('data', (chunk: Buffer) => {
      read(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => (replyBytes += chunk.length));
    upstream.pipe(client);
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
  };
}
