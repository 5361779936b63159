import { createServer, type Server } from 'node:net';
import { freePort, reservePorts } from './servers';

const listen = (port: number) =>
  new Promise<Server>((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done(server));
  });

describe('freePort', () => {
  it('hands out ports below the ephemeral range, never one twice in a row of 100, each bindable', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 100; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(100);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(32_768);
    }
    const server = await listen(ports[99]!);
    server.close();
  });

  it('skips a port something listens on and a reserved one', async () => {
    // The slice is walked in order: the next two ports after this one are the ones to block.
    const before = await freePort();
    const taken = await listen(before + 1);
    reservePorts(before + 2);
    try {
      const next = await freePort();
      expect(next).not.toBe(before + 1);
      expect(next).not.toBe(before + 2);
    } finally {
      taken.close();
    }
  });
});
