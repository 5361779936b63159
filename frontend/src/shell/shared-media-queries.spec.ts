import { shareMediaQueries } from './shared-media-queries';

describe('shareMediaQueries', () => {
  it('hands out one live list per query, asking the browser once for each', () => {
    const asked: string[] = [];
    const target = {
      matchMedia: (query: string) => {
        asked.push(query);
        return { media: query, matches: query.includes('min-width') } as MediaQueryList;
      },
    } as unknown as Window;
    shareMediaQueries(target);

    const wide = target.matchMedia('(min-width: 48em)');
    expect(target.matchMedia('(min-width: 48em)')).toBe(wide);
    expect(wide.matches).toBe(true);
    const narrow = target.matchMedia('(max-width: 47.9975em)');
    expect(narrow).not.toBe(wide);
    expect(narrow.matches).toBe(false);
    for (let i = 0; i < 100; i++) target.matchMedia('(max-width: 47.9975em)');
    expect(asked).toEqual(['(min-width: 48em)', '(max-width: 47.9975em)']);
  });

  it('leaves a window without matchMedia alone', () => {
    const target = {} as Window;
    shareMediaQueries(target);
    expect(target.matchMedia).toBeUndefined();
  });
});
