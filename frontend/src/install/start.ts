/**
 * What the install page does on load (spec section 2): with hmac, shop, host
 * and timestamp it reinstalls; with a shop alone it verifies; else it waits
 * for the form.
 */
export type InstallStart =
  | { kind: 'reinstall'; shop: string; hmac: string; host: string; timestamp: string }
  | { kind: 'verify'; shop: string }
  | { kind: 'form' };

export function installStart(search: string): InstallStart {
  const q = new URLSearchParams(search);
  const [shop, hmac, host, timestamp] = ['shop', 'hmac', 'host', 'timestamp'].map(
    (k) => q.get(k)?.trim() ?? '',
  ) as [string, string, string, string];
  if (shop && hmac && host && timestamp) return { kind: 'reinstall', shop, hmac, host, timestamp };
  if (shop) return { kind: 'verify', shop };
  return { kind: 'form' };
}
