import { createServer, connect, type Server } from 'node:net';
import { startBlackHole, startFaultProxy } from './network';

/** An echo server: what the proxy stands in front of. */
async function echo(): Promise<{ server: Server; port: number }> {
  const server = createServer((s) => s.pipe(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.address() as { port: number }).port };
}

/** Sends `text` and resolves with what came back within `ms` ('' for nothing). */
function roundTrip(
  port: number,
  text: string,
  ms: number,
): Promise<{ reply: string; after: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(text));
    let reply = '';
    socket.on('data', (d) => {
      reply += d;
      if (reply.length >= text.length) done();
    });
    socket.on('error', () => done());
    const timer = setTimeout(() => done(), ms);
    function done() {
      clearTimeout(timer);
      socket.destroy();
      resolve({ reply, after: Date.now() - started });
    }
  });
}

test('the black hole accepts and never answers, and closes what it holds on stop', async () => {
  const hole = await startBlackHole();
  const closed = new Promise<void>((resolve) => {
    const socket = connect({ port: hole.port, host: '127.0.0.1' }, () => socket.write('ping'));
    socket.on('close', () => resolve());
    socket.on('error', () => undefined);
  });
  expect((await roundTrip(hole.port, 'hello', 300)).reply).toBe('');
  expect(hole.accepted()).toBe(2);
  await hole.stop();
  await closed;
});

test('the proxy passes, delays, holds while black-holed, and delivers what it held after', async () => {
  const target = await echo();
  const proxy = await startFaultProxy({ port: target.port });
  try {
    expect((await roundTrip(proxy.port, 'pass', 1000)).reply).toBe('pass');

    proxy.setMode('delay', 150);
    const delayed = await roundTrip(proxy.port, 'slow', 2000);
    expect(delayed.reply).toBe('slow');
    // Both ways: at least twice the delay.
    expect(delayed.after).toBeGreaterThanOrEqual(290);

    proxy.setMode('blackhole');
    const held = roundTrip(proxy.port, 'held', 2000);
    await new Promise((r) => setTimeout(r, 300));
    proxy.setMode('pass');
    const answer = await held;
    expect(answer.reply).toBe('held');
    expect(answer.after).toBeGreaterThanOrEqual(290);
  } finally {
    await proxy.stop();
    target.server.close();
  }
});
