export {
  asNumber,
  isAmount,
  isCount,
  LIMITS,
  valueHint,
  type ValueKind,
} from '@ratesmith/contracts';

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Keeps a client-made id when it is well formed and not used yet, else makes one. */
export function idGenerator(): (candidate: unknown) => string {
  const seen = new Set<string>();
  return (candidate) => {
    let id = typeof candidate === 'string' && ID_PATTERN.test(candidate) ? candidate : '';
    while (!id || seen.has(id)) id = `id-${crypto.randomUUID()}`;
    seen.add(id);
    return id;
  };
}
