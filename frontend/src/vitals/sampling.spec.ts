import { EVERY_PAGE_VIEW_FLAG, isSampled, SAMPLE_ONE_IN } from './sampling';

describe('the sampling of page views', () => {
  it('reports one page view in SAMPLE_ONE_IN', () => {
    expect(SAMPLE_ONE_IN).toBe(10);
    const plain = {} as Window;
    expect(isSampled(plain, () => 0.099)).toBe(true);
    expect(isSampled(plain, () => 0.1)).toBe(false);
    expect(isSampled(plain, () => 0.95)).toBe(false);
  });

  it('reports every page view of a window the flag was set on, and only for true', () => {
    expect(isSampled({ [EVERY_PAGE_VIEW_FLAG]: true } as unknown as Window, () => 0.95)).toBe(true);
    expect(isSampled({ [EVERY_PAGE_VIEW_FLAG]: 'true' } as unknown as Window, () => 0.95)).toBe(
      false,
    );
  });

  it('reports no page view of a window the flag was set to false on, and samples for anything else', () => {
    expect(isSampled({ [EVERY_PAGE_VIEW_FLAG]: false } as unknown as Window, () => 0)).toBe(false);
    for (const other of ['false', 0, null, undefined])
      expect(isSampled({ [EVERY_PAGE_VIEW_FLAG]: other } as unknown as Window, () => 0)).toBe(true);
  });
});
