import { DEFAULT_SETTINGS, validateFilters, type Snapshot } from '@ratesmith/contracts';
import { worstFilters } from '@ratesmith/contracts/testing';
import { gzipSync } from 'node:zlib';
import { MAX_UNPACKED } from './bus-payload';
import { decodeSnapshot, encodeSnapshot } from './snapshot-codec';

const snapshot = (filters: number): Snapshot => ({
  shop: 'shop.myshopify.com',
  version: 3,
  rateKey: null,
  settings: DEFAULT_SETTINGS,
  globalRuleset: {
    id: 'r1',
    name: 'Main',
    filters: validateFilters(worstFilters(filters, 50, false), 'ruleset').filters,
  },
  productRules: [],
  products: {},
});

describe('a snapshot as the bucket holds it', () => {
  it('is its JSON text while small, as snapshots were written before', () => {
    const small = snapshot(1);
    const data = encodeSnapshot(small);
    expect(Buffer.from(data).toString('utf8')).toBe(JSON.stringify(small));
    expect(decodeSnapshot(data)).toEqual(small);
  });

  it('is gzipped when large: the enabled ruleset at its limits, about a fifth of its JSON', () => {
    const large = snapshot(100);
    const json = JSON.stringify(large).length;
    const data = encodeSnapshot(large);
    expect([data[0], data[1]]).toEqual([0x1f, 0x8b]);
    expect(data.length).toBeLessThan(json / 4);
    expect(decodeSnapshot(data)).toEqual(large);
  });

  it('refuses a gzipped entry that would unpack past MAX_UNPACKED, without unpacking it all', () => {
    const bomb = new Uint8Array(gzipSync(Buffer.alloc(MAX_UNPACKED + 1024, 0x20)));
    expect(() => decodeSnapshot(bomb)).toThrow(/Cannot create a Buffer larger than|Buffer/);
  });
});
