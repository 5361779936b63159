import { getHeapSpaceStatistics } from 'node:v8';
import { releaseLoadMemory } from './release-memory';

const newSpace = () =>
  getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;

describe('the memory-reducing collection after the start-up load', () => {
  it('is offered by this runtime and shrinks a young generation grown by a load', () => {
    // A load-like allocation: many objects surviving a few scavenges each.
    let window: unknown[] = [];
    for (let i = 0; i < 300_000; i++) {
      window.push({ values: new Array(20).fill(i), name: `item ${i}` });
      if (window.length > 20_000) window = window.slice(10_000);
    }
    window = [];
    const grown = newSpace();
    expect(releaseLoadMemory()).toBe(true);
    const after = newSpace();
    console.log(
      `new space ${(grown / 2 ** 20).toFixed(0)} MB -> ${(after / 2 ** 20).toFixed(0)} MB`,
    );
    expect(after).toBeLessThan(grown);
    expect(window).toEqual([]);
  });

  it('can run again (the function is kept)', () => {
    expect(releaseLoadMemory()).toBe(true);
  });
});
