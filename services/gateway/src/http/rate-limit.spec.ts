import { clientAddressKey } from './rate-limit';

describe('clientAddressKey', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:198.51.100.7', '198.51.100.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['unknown', 'unknown'],
  ])('%s is counted as %s', (address, key) => {
    expect(clientAddressKey(address)).toBe(key);
  });

  it('puts every address of one /64 under one key, and the next /64 under another', () => {
    const keys = new Set(
      Array.from({ length: 100 }, (_, n) => clientAddressKey(`2001:db8:aa:bb::${n.toString(16)}`)),
    );
    expect([...keys]).toEqual(['2001:db8:aa:bb::/64']);
    expect(clientAddressKey('2001:db8:aa:bc::1')).not.toBe('2001:db8:aa:bb::/64');
  });
});
