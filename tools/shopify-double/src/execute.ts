import type { FieldNode, Selection } from './parse';
import type { Schema } from './schema';
import { argumentValues, type ShopifyGraphqlError } from './validate';

/**
 * Shapes a handler's data to the selection, as Shopify answers: only the
 * fields asked for, under their aliases, inline fragments applied by the
 * value's `__typename`. A value may be a function of the field's arguments
 * (a product's `variants(first:, after:)`), called with them here. Also adds
 * up the actual cost of what is returned, by the rules of the requested cost
 * with the real lengths of lists and pages.
 */

/** A field whose value depends on its arguments. */
export type Resolver = (args: Record<string, unknown>) => unknown;

/** Thrown by a resolver: the field becomes null and the reply carries this error. */
export class FieldError extends Error {
  constructor(
    message: string,
    readonly extensions?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface Projection {
  value: unknown;
  cost: number;
}

export function project(
  schema: Schema,
  typeName: string,
  selections: Selection[],
  source: unknown,
  variables: Record<string, unknown>,
  path: (string | number)[],
  errors: ShopifyGraphqlError[],
): Projection {
  if (source === null || source === undefined) return { value: null, cost: 0 };
  const record = source as Record<string, unknown>;
  const concrete = typeof record.__typename === 'string' ? record.__typename : typeName;
  const out: Record<string, unknown> = {};
  let cost = 0;
  let views = 0;
  const connection = schema.types[typeName]?.connection;
  for (const s of selections) {
    if (s.kind === 'inline') {
      const condition = s.typeCondition ?? typeName;
      const applies =
        condition === concrete ||
        condition === typeName ||
        Boolean(schema.types[condition]?.possibleTypes?.includes(concrete));
      if (!applies) continue;
      const inner = project(schema, condition, s.selections, source, variables, path, errors);
      Object.assign(out, inner.value);
      cost += inner.cost;
      continue;
    }
    const key = s.alias ?? s.name;
    if (s.name === '__typename') {
      out[key] = concrete;
      continue;
    }
    const def = schema.types[concrete]?.fields[s.name] ?? schema.types[typeName]?.fields[s.name];
    if (!def) continue;
    let raw = record[s.name];
    if (typeof raw === 'function') {
      try {
        raw = (raw as Resolver)(argumentValues(s, variables));
      } catch (err) {
        if (!(err instanceof FieldError)) throw err;
        errors.push({
          message: err.message,
          locations: [s.loc],
          path: [...path, key].map(String),
          ...(err.extensions ? { extensions: err.extensions } : {}),
        });
        raw = null;
      }
    }
    const field = projectField(schema, def, s, raw, variables, [...path, key], errors);
    out[key] = field.value;
    if (connection && (s.name === 'edges' || s.name === 'nodes'))
      views = Math.max(views, field.cost);
    else cost += field.cost;
  }
  return { value: out, cost: cost + views };
}

function projectField(
  schema: Schema,
  def: Schema['types'][string]['fields'][string],
  field: FieldNode,
  raw: unknown,
  variables: Record<string, unknown>,
  path: (string | number)[],
  errors: ShopifyGraphqlError[],
): Projection {
  if (def.kind === 'scalar') return { value: raw ?? null, cost: 0 };
  if (raw === null || raw === undefined) return { value: null, cost: 0 };
  const inner = field.selections ?? [];
  if (def.kind === 'list') {
    if (!Array.isArray(raw)) return { value: null, cost: 0 };
    let cost = 0;
    const value = raw.map((item, i) => {
      if (item === null || item === undefined) return null;
      const p = project(schema, def.type, inner, item, variables, [...path, i], errors);
      cost += (def.free ? 0 : 1) + p.cost;
      return p.value;
    });
    return { value, cost };
  }
  const typeName = def.kind === 'connection' ? `${def.type}Connection` : def.type;
  const p = project(schema, typeName, inner, raw, variables, path, errors);
  const base = def.kind === 'connection' ? 2 : def.free ? 0 : 1;
  return { value: p.value, cost: base + p.cost };
}
