import type { AddressInfo } from 'node:net';
import express from 'express';
import { shedLoadPast } from './load-shedding';

/** A real HTTP server whose one route holds every request until `release`. */
async function heldServer(limit: number) {
  const waiting: (() => void)[] = [];
  const app = express();
  app.use(shedLoadPast(limit));
  app.get('/', (_req, res) => {
    waiting.push(() => res.json({ ok: true }));
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  /** Until `count` requests are held, or `stop()` says to give up waiting. */
  const until = async (count: number, stop = () => false) => {
    while (waiting.length < count && !stop()) await new Promise((r) => setTimeout(r, 5));
  };
  return {
    url,
    until,
    release: () => waiting.splice(0).forEach((answer) => answer()),
    forget: () => void waiting.splice(0),
    // Keep-alive sockets would hold close() for their idle timeout (5 s).
    close: () => new Promise((r) => (server.close(r), server.closeAllConnections())),
  };
}

describe('shedLoadPast', () => {
  it('answers 503 with Retry-After at once past the bound, and takes requests again once they end', async () => {
    const s = await heldServer(2);
    try {
      const held = [fetch(s.url), fetch(s.url)];
      await s.until(2);
      const shed = await fetch(s.url);
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('1');
      expect(await shed.json()).toEqual({
        status: false,
        message: 'The app is busy. Please try again in a moment.',
      });
      s.release();
      expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
      const again = fetch(s.url);
      await s.until(1);
      s.release();
      expect((await again).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('frees the place of a request whose client went away', async () => {
    const s = await heldServer(1);
    try {
      const gone = new AbortController();
      const abandoned = fetch(s.url, { signal: gone.signal }).catch(() => 'aborted');
      await s.until(1);
      gone.abort();
      expect(await abandoned).toBe('aborted');
      s.forget(); // the abandoned one is never answered: only its closed connection may free it
      // The server sees the close a moment later. Each try is shed at once (503) or held
      // until released: release it once it is held, however long a busy machine takes.
      let status = 503;
      for (let i = 0; i < 100 && status === 503; i++) {
        let answered = false;
        const next = fetch(s.url).then((r) => ((answered = true), r.status));
        await s.until(1, () => answered);
        s.release();
        status = await next;
        if (status === 503) await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('holds no bound at 0', async () => {
    const s = await heldServer(0);
    try {
      const held = Array.from({ length: 5 }, () => fetch(s.url));
      await s.until(5);
      s.release();
      expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    } finally {
      await s.close();
    }
  });
});
