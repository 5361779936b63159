/**
 * What the install page does on load: with hmac, shop, host
 * and timestamp it reinstalls; with a shop alone it verifies; else it waits
 * for the form.
 */
export type InstallStart =
  | {
      kind: 'reinstall';
      shop: string;
      /**
       * Every query parameter, passed on as is: Shopify's HMAC covers all it
       * signed (e.g. `embedded`, `locale` too), so the server needs them all.
       */
      signed: Record<string, string>;
    }
  | { kind: 'verify'; shop: string }
  | { kind: 'form' };

export function installStart(search: string): InstallStart {
  const q = new URLSearchParams(search);
  const [shop, hmac, host, timestamp] = ['shop', 'hmac', 'host', 'timestamp'].map(
    (k) => q.get(k)?.trim() ?? '',
  ) as [string, string, string, string];
  if (shop && hmac && host && timestamp) {
    const signed = Object.fromEntries(q.entries());
    return { kind: 'reinstall', shop, signed: { ...signed, shop, hmac, host, timestamp } };
  }
  if (shop) return { kind: 'verify', shop };
  return { kind: 'form' };
}
