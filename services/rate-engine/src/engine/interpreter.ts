import { AND, EQ, GE, GT, LT, NE, OR } from './program-layout';

/**
 * The cold tier: the interpreter of a compiled snapshot's condition program
 * (compile.ts writes it, program-layout.ts gives its words). Every cached
 * shop runs on it until the hot tier (hot-tier.ts) gives it generated code,
 * and both answer exactly alike.
 */

/**
 * Whether the group at program[at] holds for the cart figures f, evaluated
 * left to right with short-circuiting, as `&&` / `||` would.
 */
export function matches(p: Int32Array, at: number, f: Float64Array): boolean {
  const or = p[at] === OR;
  const end = p[at + 1]!;
  let i = at + 2;
  while (i < end) {
    const word = p[i]!;
    const op = word & 7;
    let result: boolean;
    if (op >= AND) {
      result = matches(p, i, f);
      i = p[i + 1]!;
    } else {
      const v = f[word >> 3]!;
      const k = p[i + 1]!;
      switch (op) {
        case EQ:
          result = v === k;
          break;
        case NE:
          result = v !== k;
          break;
        case GT:
          result = v > k;
          break;
        case GE:
          result = v >= k;
          break;
        case LT:
          result = v < k;
          break;
        default:
          result = v <= k;
      }
      i += 2;
    }
    if (result === or) return or;
  }
  return !or;
}
