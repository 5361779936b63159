import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from './errors';
import { HEAVY_CALL_BUSY, HeavyCallsPerShop } from './heavy-calls';

describe('HeavyCallsPerShop', () => {
  it('lets `limit` calls of a shop in, refuses the next, and counts shops apart', () => {
    const heavy = new HeavyCallsPerShop(2);
    const first = heavy.tryEnter('a');
    const second = heavy.tryEnter('a');
    expect([first, second].every((r) => typeof r === 'function')).toBe(true);
    expect(heavy.tryEnter('a')).toBeUndefined();
    expect(heavy.tryEnter('b')).toBeDefined();
    first!();
    expect(heavy.tryEnter('a')).toBeDefined();
  });

  it('gives a slot back once however often its release is called', () => {
    const heavy = new HeavyCallsPerShop(2);
    const first = heavy.tryEnter('a')!;
    heavy.tryEnter('a');
    first();
    first();
    // One slot free, not two.
    expect(heavy.tryEnter('a')).toBeDefined();
    expect(heavy.tryEnter('a')).toBeUndefined();
  });

  it('run refuses with conflict while the slots are taken, and frees its slot on failure too', async () => {
    const heavy = new HeavyCallsPerShop(1);
    const slow = heavy.run('a', () => sleep(20).then(() => 'done'));
    const refused = heavy.run('a', async () => 'never');
    await expect(refused).rejects.toEqual(new AppError('conflict', HEAVY_CALL_BUSY));
    expect(await slow).toBe('done');
    await expect(
      heavy.run('a', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await heavy.run('a', async () => 'again')).toBe('again');
  });
});
