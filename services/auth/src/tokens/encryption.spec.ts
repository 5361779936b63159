import { parseEncryptionKeys, TokenCipher } from './encryption';

const key = (fill: number) => Buffer.alloc(32, fill).toString('base64');
const shop = 'a-shop.myshopify.com';

describe('TokenCipher', () => {
  const cipher = new TokenCipher(parseEncryptionKeys(`k1:${key(1)}`));

  it('seals with the current key id and opens again', () => {
    const sealed = cipher.seal('shpat_secret', shop);
    expect(sealed.kid).toBe('k1');
    expect(sealed.ciphertext).not.toContain('shpat');
    expect(cipher.open(sealed, shop)).toBe('shpat_secret');
  });

  it('uses a fresh IV each time', () => {
    expect(cipher.seal('x', shop).iv).not.toBe(cipher.seal('x', shop).iv);
  });

  it('refuses a ciphertext moved to another shop', () => {
    const sealed = cipher.seal('shpat_secret', shop);
    expect(() => cipher.open(sealed, 'other.myshopify.com')).toThrow();
  });

  it('refuses a tampered ciphertext or tag', () => {
    const sealed = cipher.seal('shpat_secret', shop);
    const flipped = Buffer.from(sealed.ciphertext, 'base64');
    flipped[0]! ^= 1;
    expect(() =>
      cipher.open({ ...sealed, ciphertext: flipped.toString('base64') }, shop),
    ).toThrow();
    expect(() =>
      cipher.open({ ...sealed, tag: Buffer.alloc(16).toString('base64') }, shop),
    ).toThrow();
  });

  it('rotates: the new first key seals, the old one still opens', () => {
    const old = cipher.seal('old-token', shop);
    const rotated = new TokenCipher(parseEncryptionKeys(`k2:${key(2)},k1:${key(1)}`));
    expect(rotated.open(old, shop)).toBe('old-token');
    expect(rotated.isStale(old)).toBe(true);
    const fresh = rotated.seal('new-token', shop);
    expect(fresh.kid).toBe('k2');
    expect(rotated.isStale(fresh)).toBe(false);
    expect(() => cipher.open(fresh, shop)).toThrow('encryption key k2 is not configured');
  });
});

describe('TokenCipher during a rotation', () => {
  const old = new TokenCipher(parseEncryptionKeys(`old:${key(1)}`));
  const rotated = new TokenCipher(parseEncryptionKeys(`new:${key(2)},old:${key(1)}`));

  it('names the current key and the keys it holds', () => {
    expect(rotated.currentKid).toBe('new');
    expect(rotated.hasKey('old')).toBe(true);
    expect(rotated.hasKey('gone')).toBe(false);
    expect(old.hasKey('new')).toBe(false);
  });

  it('re-seals an old record under the current key: same plaintext, no longer stale', () => {
    const sealed = old.seal('{"accessToken":"shpat_x"}', shop);
    const resealed = rotated.seal(rotated.open(sealed, shop), shop);
    expect(resealed.kid).toBe('new');
    expect(rotated.isStale(resealed)).toBe(false);
    expect(rotated.open(resealed, shop)).toBe('{"accessToken":"shpat_x"}');
    // The old deployment cannot read it any more: the old key only goes once nothing needs it.
    expect(() => old.open(resealed, shop)).toThrow('encryption key new is not configured');
  });

  it('fails authentication when a kid names a different key than the one that sealed', () => {
    const sealed = old.seal('token', shop);
    const swapped = new TokenCipher(parseEncryptionKeys(`old:${key(3)}`));
    expect(swapped.hasKey('old')).toBe(true);
    expect(() => swapped.open(sealed, shop)).toThrow();
  });
});

describe('parseEncryptionKeys', () => {
  it.each([
    ['', 'needs at least one'],
    ['k1', 'kid:base64key'],
    [`k1:${Buffer.alloc(16).toString('base64')}`, 'must be 32 bytes'],
    [`k1:${key(1)},k1:${key(2)}`, 'appears twice'],
  ])('refuses %j', (value, message) => {
    expect(() => parseEncryptionKeys(value)).toThrow(message);
  });
});
