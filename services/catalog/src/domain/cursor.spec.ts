import { unwrapCursor, wrapCursor } from './cursor';

describe('page cursors', () => {
  it('round-trips the Shopify cursor for the same search', () => {
    const cursor = wrapCursor('mug*', 'eyJsYXN0X2lkIjo0Mn0=');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(unwrapCursor('mug*', cursor)).toEqual({
      kind: 'cursor',
      shopifyCursor: 'eyJsYXN0X2lkIjo0Mn0=',
    });
  });

  it('tells a cursor of another search from a malformed one', () => {
    expect(unwrapCursor('hat*', wrapCursor('mug*', 'abc'))).toEqual({ kind: 'other-search' });
    expect(unwrapCursor('', wrapCursor('mug*', 'abc'))).toEqual({ kind: 'other-search' });
    expect(unwrapCursor('', 'not-a-cursor')).toEqual({ kind: 'invalid' });
    expect(unwrapCursor('', Buffer.from('{"s":"","c":""}').toString('base64url'))).toEqual({
      kind: 'invalid',
    });
    expect(unwrapCursor('', '')).toEqual({ kind: 'none' });
  });
});
