import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from './health';

/** A server that answers after 20 ms, and how many of `count` requests to it were answered. */
async function serverWithRequests(count: number) {
  const server: Server = createServer((_req, res) => {
    setTimeout(() => res.end('ok'), 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const outcomes = Array.from(
    { length: count },
    () =>
      new Promise<'answered' | 'reset'>((resolve) => {
        const req = request({ port, host: '127.0.0.1', agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.headers.connection === 'close' ? 'answered' : 'reset'));
        });
        req.on('error', () => resolve('reset'));
        req.end();
      }),
  );
  return { server, outcomes };
}

/** Holds the event loop, as a busy process does when the SIGTERM arrives. */
function busyFor(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe('closeServer', () => {
  it('answers, with Connection: close, every request sent before it while the process was busy', async () => {
    const { server, outcomes } = await serverWithRequests(16);
    busyFor(150);
    const closing = closeServer(server, 5000);
    expect(await Promise.all(outcomes)).toEqual(Array(16).fill('answered'));
    await closing;
    expect(server.listening).toBe(false);
  });

  it('closes once quiet, long before the drain bound', async () => {
    const { server, outcomes } = await serverWithRequests(2);
    await Promise.all(outcomes);
    const started = Date.now();
    await closeServer(server, 10_000);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('without a drain resets requests a busy process had not read yet (why the drain exists)', async () => {
    const { server, outcomes } = await serverWithRequests(16);
    busyFor(150);
    await closeServer(server);
    expect((await Promise.all(outcomes)).filter((o) => o === 'reset').length).toBeGreaterThan(0);
  });
});
