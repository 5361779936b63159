import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * Network faults on loopback, as plain TCP listeners: a black hole (accepts,
 * never answers) and a proxy in front of a real server whose mode can be
 * switched while connections are open: `pass` forwards, `delay` forwards
 * after a fixed latency (a slow Shopify), `blackhole` holds every byte in
 * both directions and answers new connections with silence (a partition:
 * no reset, no error, nothing).
 */
export interface BlackHole {
  port: number;
  url(scheme: string): string;
  /** Connections accepted so far. */
  accepted(): number;
  /** Closes the listener and every connection it holds. */
  stop(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as { port: number }).port;
}

function closer(server: Server, sockets: Set<Socket>): () => Promise<void> {
  return async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

export async function startBlackHole(): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    // Reads nothing back, writes nothing: the peer waits until its own timeout.
  });
  const port = await listen(server);
  return {
    port,
    url: (scheme) => `${scheme}://127.0.0.1:${port}`,
    accepted: () => accepted,
    stop: closer(server, sockets),
  };
}

export type ProxyMode = 'pass' | 'delay' | 'blackhole';

export interface FaultProxy {
  port: number;
  url(scheme: string): string;
  mode(): ProxyMode;
  /** `delayMs` applies to `delay`: each chunk, either way, waits this long. */
  setMode(mode: ProxyMode, delayMs?: number): void;
  stop(): Promise<void>;
}

export async function startFaultProxy(target: {
  port: number;
  host?: string;
}): Promise<FaultProxy> {
  let mode: ProxyMode = 'pass';
  let delayMs = 0;
  const sockets = new Set<Socket>();
  /** What each direction holds while black-holed, flushed when passing again. */
  const held: (() => void)[] = [];

  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      const send = () => {
        if (!to.destroyed) to.write(chunk);
      };
      if (mode === 'blackhole') held.push(send);
      else if (mode === 'delay') setTimeout(send, delayMs).unref();
      else send();
    });
    from.on('close', () => to.destroy());
    from.on('error', () => to.destroy());
  };

  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const upstream = connect({ port: target.port, host: target.host ?? '127.0.0.1' });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    forward(client, upstream);
    forward(upstream, client);
  });
  const port = await listen(server);
  return {
    port,
    url: (scheme) => `${scheme}://127.0.0.1:${port}`,
    mode: () => mode,
    setMode(next, ms = 0) {
      mode = next;
      delayMs = ms;
      if (next !== 'blackhole') for (const send of held.splice(0)) send();
    },
    stop: closer(server, sockets),
  };
}
