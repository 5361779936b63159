import { negotiateEncoding, type Coding } from './static-files';

const ALL: Coding[] = ['br', 'gzip', 'identity'];

describe('negotiateEncoding', () => {
  it.each([
    // What browsers send: brotli wins.
    ['gzip, deflate, br, zstd', ALL, 'br'],
    ['br', ALL, 'br'],
    ['gzip, deflate', ALL, 'gzip'],
    ['x-gzip', ALL, 'gzip'],
    // No header, or nothing the gateway has: the file as it is.
    [undefined, ALL, 'identity'],
    ['', ALL, 'identity'],
    ['deflate, zstd', ALL, 'identity'],
    // Refused by q=0, or ranked by q.
    ['br;q=0, gzip', ALL, 'gzip'],
    ['br;q=0.5, gzip;q=0.8', ALL, 'gzip'],
    ['BR;Q=1.0, GZIP;q=0.9', ALL, 'br'],
    ['*', ALL, 'br'],
    ['*;q=0, identity', ALL, 'identity'],
    ['gzip;q=0, *', ALL, 'br'],
    // Only what exists is offered (a file the build did not compress).
    ['br, gzip', ['gzip', 'identity'], 'gzip'],
    ['br, gzip', ['identity'], 'identity'],
    // identity refused and nothing else acceptable: still the right bytes.
    ['identity;q=0', ['identity'], 'identity'],
    ['gzip;q=nonsense, br;q=0', ALL, 'identity'],
  ] as [string | undefined, Coding[], Coding][])('%p of %p → %p', (header, offered, expected) => {
    expect(negotiateEncoding(header, offered)).toBe(expected);
  });
});
