import { EMAIL_MAX_LENGTH, isEmailAddress } from './email';

describe('isEmailAddress', () => {
  // The install form's rule has always been loose (a@b..c passes): kept as it was.
  it.each(['owner@example.com', 'a@b.c', 'first.last+tag@sub.example.co.uk', 'a@b..c'])(
    'accepts %s',
    (email) => {
      expect(isEmailAddress(email)).toBe(true);
    },
  );

  it.each([
    '',
    'plain',
    '@example.com',
    'owner@',
    'owner@example',
    'owner@example.',
    'owner@.com',
    'two@@example.com',
    'a@b@c.com',
    'owner @example.com',
    'owner@exa mple.com',
    'owner@example.com\n',
  ])('refuses %j', (email) => {
    expect(isEmailAddress(email)).toBe(false);
  });

  it('accepts exactly the longest address and refuses one character more', () => {
    const at = (n: number) => `${'a'.repeat(n - '@example.com'.length)}@example.com`;
    expect(isEmailAddress(at(EMAIL_MAX_LENGTH))).toBe(true);
    expect(isEmailAddress(at(EMAIL_MAX_LENGTH + 1))).toBe(false);
  });
});
