import pino from 'pino';
import { Lifecycle } from './lifecycle';

describe('Lifecycle', () => {
  it('stops parts newest first, once, and stops accepting work at once', async () => {
    const lifecycle = new Lifecycle(pino({ level: 'silent' }));
    const order: string[] = [];
    lifecycle.onStop('nats', () => order.push('nats'));
    lifecycle.onStop('http', async () => {
      expect(lifecycle.accepting).toBe(false);
      order.push('http');
    });
    await Promise.all([lifecycle.stop(), lifecycle.stop()]);
    expect(order).toEqual(['http', 'nats']);
  });

  it('runs every step even when one fails, then reports the failure', async () => {
    const lifecycle = new Lifecycle(pino({ level: 'silent' }));
    const ran: string[] = [];
    lifecycle.onStop('a', () => ran.push('a'));
    lifecycle.onStop('b', () => {
      throw new Error('boom');
    });
    await expect(lifecycle.stop()).rejects.toThrow('shutdown incomplete');
    expect(ran).toEqual(['a']);
  });
});
