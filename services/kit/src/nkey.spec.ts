import { createAccount, createUser, fromPublic, fromSeed } from '@nats-io/nkeys';
import { newNkeyUser, nkeyAuthenticator, nkeyUserFromSeed } from './nkey';

/** The nkeys package is NATS's own reference: the native keys must agree with it byte for byte. */
describe('nkey users with Node’s Ed25519', () => {
  it('derives the public key nkeys derives, for 20 random seeds', () => {
    for (let i = 0; i < 20; i++) {
      const reference = createUser();
      const seed = new TextDecoder().decode(reference.getSeed());
      expect(nkeyUserFromSeed(`  ${seed}\n`).publicKey).toBe(reference.getPublicKey());
    }
  });

  it('signs what nkeys verifies, and what nkeys signs', () => {
    const user = newNkeyUser();
    const reference = fromSeed(new TextEncoder().encode(user.seed));
    expect(reference.getPublicKey()).toBe(user.publicKey);
    const nonce = new TextEncoder().encode('nonce-from-the-server');
    const sig = user.sign(nonce);
    expect(Buffer.from(sig)).toEqual(Buffer.from(reference.sign(nonce)));
    expect(fromPublic(user.publicKey).verify(nonce, sig)).toBe(true);
    expect(fromPublic(user.publicKey).verify(new TextEncoder().encode('other'), sig)).toBe(false);
  });

  it('answers the server’s nonce as the NATS client expects, and no signature without one', () => {
    const user = newNkeyUser();
    const auth = nkeyAuthenticator(user)('abc') as { nkey: string; sig: string };
    expect(auth.nkey).toBe(user.publicKey);
    const sig = Buffer.from(auth.sig, 'base64url');
    expect(fromPublic(user.publicKey).verify(new TextEncoder().encode('abc'), sig)).toBe(true);
    expect(nkeyAuthenticator(user)()).toEqual({ nkey: user.publicKey, sig: '' });
  });

  it('refuses a seed that is not a user’s, or whose checksum is wrong', () => {
    const account = new TextDecoder().decode(createAccount().getSeed());
    expect(() => nkeyUserFromSeed(account)).toThrow('not a NATS user nkey seed');
    const user = newNkeyUser().seed;
    const flipped = user.slice(0, 10) + (user[10] === 'A' ? 'B' : 'A') + user.slice(11);
    expect(() => nkeyUserFromSeed(flipped)).toThrow();
    expect(() => nkeyUserFromSeed('not a seed')).toThrow();
  });
});
