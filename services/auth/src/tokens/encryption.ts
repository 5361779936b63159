import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for tokens at rest. Each record keeps the id of the key that
 * sealed it, so keys can rotate: put the new key first in
 * TOKEN_ENCRYPTION_KEYS, keep the old ones after it until every record was
 * rewritten. The shop is bound in as associated data, so a ciphertext copied
 * onto another shop's record does not decrypt.
 */
export interface SealedSecret {
  kid: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

export interface EncryptionKeys {
  current: string;
  keys: Map<string, Buffer>;
}

export function parseEncryptionKeys(value: string): EncryptionKeys {
  const keys = new Map<string, Buffer>();
  for (const entry of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const match = /^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9+/=_-]+)$/.exec(entry);
    if (!match) throw new Error('must be comma-separated kid:base64key entries');
    const key = Buffer.from(match[2]!, 'base64');
    if (key.length !== 32)
      throw new Error(`key ${match[1]} must be 32 bytes (base64 of 32 random bytes)`);
    if (keys.has(match[1]!)) throw new Error(`key id ${match[1]} appears twice`);
    keys.set(match[1]!, key);
  }
  const current = keys.keys().next().value;
  if (current === undefined) throw new Error('needs at least one kid:base64key entry');
  return { current, keys };
}

export class TokenCipher {
  constructor(private readonly keys: EncryptionKeys) {}

  seal(plaintext: string, shop: string): SealedSecret {
    const key = this.keys.keys.get(this.keys.current)!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(shop));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      kid: this.keys.current,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      ciphertext: ciphertext.toString('base64'),
    };
  }

  open(sealed: SealedSecret, shop: string): string {
    const key = this.keys.keys.get(sealed.kid);
    if (!key) throw new Error(`encryption key ${sealed.kid} is not configured`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(shop));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  }

  /** Whether the record was sealed with an older key and should be rewritten. */
  isStale(sealed: SealedSecret): boolean {
    return sealed.kid !== this.keys.current;
  }

  /** The key id new records are sealed with. */
  get currentKid(): string {
    return this.keys.current;
  }

  /** Whether a record sealed with `kid` can be opened at all (tells a missing key from a bad record). */
  hasKey(kid: string): boolean {
    return this.keys.keys.has(kid);
  }
}
