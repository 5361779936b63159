import { createPrivateKey, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { Authenticator } from '@nats-io/transport-node';
import { encode, Prefix } from '@nats-io/nkeys';
// Only the nkey text format (base32, prefix, checksum) is taken from nkeys: the package exports
// no encoder of a public key it did not derive with its own curve.
import { Codec } from '@nats-io/nkeys/lib/codec';

/** PKCS #8 DER of an Ed25519 private key, up to its 32-byte seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * A NATS nkey user (`SU...` seed, `U...` public key) with Node's own Ed25519. The nkeys
 * package signs with a pure-JavaScript curve: three scalar multiplications per connection,
 * tens of milliseconds each on a busy 2-core machine, for every service at every reconnect.
 */
export interface NkeyUser {
  seed: string;
  publicKey: string;
  sign(data: Uint8Array): Uint8Array;
}

function userOf(rawSeed: Uint8Array, seed: string): NkeyUser {
  const key: KeyObject = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, rawSeed]),
    format: 'der',
    type: 'pkcs8',
  });
  const rawPublic = Buffer.from(createPublicKey(key).export({ format: 'jwk' }).x!, 'base64url');
  return {
    seed,
    publicKey: new TextDecoder().decode(Codec.encode(Prefix.User, rawPublic)),
    sign: (data) => sign(null, data, key),
  };
}

/** The user of a seed as a service holds it (NATS_NKEY_SEED); throws on anything but a user seed. */
export function nkeyUserFromSeed(seed: string): NkeyUser {
  const text = seed.trim();
  // Checks the checksum and the prefixes; derives nothing.
  const { prefix, buf } = Codec.decodeSeed(new TextEncoder().encode(text));
  if (prefix !== Prefix.User) throw new Error('not a NATS user nkey seed (SU...)');
  return userOf(buf, text);
}

/** A new random user, as the devstack makes one per service. */
export function newNkeyUser(): NkeyUser {
  const raw = randomBytes(32);
  return userOf(raw, new TextDecoder().decode(Codec.encodeSeed(Prefix.User, raw)));
}

/** What the NATS client sends when the server asks for an nkey signature of its nonce. */
export function nkeyAuthenticator(user: NkeyUser): Authenticator {
  return (nonce?: string) => ({
    nkey: user.publicKey,
    sig: nonce ? encode(user.sign(new TextEncoder().encode(nonce))) : '',
  });
}
