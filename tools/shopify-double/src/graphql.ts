import { FieldError, project } from './execute';
import { GraphqlSyntaxError, parseOperation, type FieldNode, type Operation } from './parse';
import { ADMIN_SCHEMA, type Schema } from './schema';
import {
  argumentValues,
  maxCostExceeded,
  MAX_QUERY_COST,
  MUTATION_COST,
  requestedCost,
  rootType,
  validateOperation,
  type ShopifyGraphqlError,
} from './validate';

/**
 * The Admin GraphQL endpoint of the double. It parses the operation, refuses
 * what Shopify would refuse (fields, arguments and variables not in the
 * schema of schema.ts, a requested cost above 1,000, an empty cost bucket),
 * then hands each root field to the handler registered for it (carrier
 * services, products, ...) and shapes the handler's data to the selection.
 * Handlers return the usual `{data, errors, extensions}`, or an HTTP status
 * (429, 500, ...) to answer the whole request with.
 */
export interface GraphqlContext {
  shop: string;
  /** The operation text, for handlers that want to look at the selection. */
  query: string;
  /** The root field's arguments, the request's variables substituted. */
  args?: Record<string, unknown>;
  /** The requested cost of the whole operation. */
  cost?: number;
  /** The root field as parsed. */
  field?: FieldNode;
  /** The access token's granted scopes; undefined when the caller did not say (unit tests). */
  scopes?: readonly string[];
}

export interface GraphqlResult {
  /** Merged into the response's `data`; key it by the root field, e.g. `{products: {...}}`. */
  data?: unknown;
  errors?: unknown;
  extensions?: unknown;
  /** Answer the whole request with this HTTP status and `body` (default: the result's errors). */
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type GraphqlHandler = (
  variables: Record<string, unknown>,
  ctx: GraphqlContext,
) => GraphqlResult | Promise<GraphqlResult>;

/** An HTTP answer for the whole request: what handlers return to throttle or fail. */
export function httpReply(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): GraphqlResult {
  return { status, body, headers };
}

export interface GraphqlResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** Shopify's bucket of a standard store: 2,000 points, 100 restored a second. */
export const BUCKET_SIZE = 2000;
export const RESTORE_RATE = 100;

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

/**
 * Shopify's leaky bucket, one per shop: a query needs its requested cost
 * available, takes it, and gets back what it did not use (requested minus
 * actual); points come back at `restoreRate` a second.
 */
export class CostBucket {
  private readonly shops = new Map<string, { available: number; at: number }>();
  maximumAvailable = BUCKET_SIZE;
  restoreRate = RESTORE_RATE;

  constructor(private readonly now: () => number = Date.now) {}

  status(shop: string): ThrottleStatus {
    return {
      maximumAvailable: this.maximumAvailable,
      currentlyAvailable: Math.floor(this.refill(shop).available),
      restoreRate: this.restoreRate,
    };
  }

  /** Takes `cost` points if they are there; false (nothing taken) if not. */
  take(shop: string, cost: number): boolean {
    const state = this.refill(shop);
    if (cost > state.available) return false;
    state.available -= cost;
    return true;
  }

  refund(shop: string, points: number): void {
    const state = this.refill(shop);
    state.available = Math.min(this.maximumAvailable, state.available + Math.max(0, points));
  }

  /** Sets a shop's points left now (tests of throttling). */
  setAvailable(shop: string, points: number): void {
    this.shops.set(shop, { available: points, at: this.now() });
  }

  reset(): void {
    this.shops.clear();
    this.maximumAvailable = BUCKET_SIZE;
    this.restoreRate = RESTORE_RATE;
  }

  private refill(shop: string) {
    const now = this.now();
    const state = this.shops.get(shop) ?? { available: this.maximumAvailable, at: now };
    state.available = Math.min(
      this.maximumAvailable,
      state.available + ((now - state.at) / 1000) * this.restoreRate,
    );
    state.at = now;
    this.shops.set(shop, state);
    return state;
  }
}

export interface OperationRecord {
  shop: string;
  /** Root field names, in the order of the operation. */
  fields: string[];
  variables: Record<string, unknown>;
  /** The requested cost the double computed; undefined when the operation was refused before. */
  requestedQueryCost: number | undefined;
  /** The code of the error that refused it (undefinedField, MAX_COST_EXCEEDED, THROTTLED, ...). */
  refused: string | undefined;
}

export class GraphqlDispatcher {
  private readonly handlers = new Map<string, GraphqlHandler>();
  private readonly seen: OperationRecord[] = [];
  /** Every shop's cost bucket; each query is charged its requested cost. */
  readonly bucket: CostBucket;

  private failures:
    { reply: GraphqlResponse; remaining: number; shop?: string; only?: RegExp } | undefined;

  /** `now`: the bucket's clock (tests fix it, so restored points do not depend on timing). */
  constructor(
    readonly schema: Schema = ADMIN_SCHEMA,
    now: () => number = Date.now,
  ) {
    this.bucket = new CostBucket(now);
  }

  /**
   * The next `count` GraphQL requests answer `status` (Shopify down, throttling): of any
   * shop, or of `shop` only (a test's own shop, whatever other shops' background reads
   * reach the double first); with `only`, just the requests whose document matches it
   * (Shopify failing a mutation after the reads before it went through).
   */
  failNext(
    status: number,
    count = 1,
    body: unknown = { errors: 'Internal error' },
    shop?: string,
    only?: RegExp,
  ): void {
    this.failures = { reply: { status, body, headers: {} }, remaining: count, shop, only };
  }

  /**
   * The next failure set by failNext for this request, if any is left
   * (consumed). The server asks before it checks the access token: Shopify
   * down answers 5xx whatever the token.
   */
  takeFailure(shop: string, document = ''): GraphqlResponse | undefined {
    if (!this.failures || this.failures.remaining <= 0) return undefined;
    if (this.failures.shop !== undefined && this.failures.shop !== shop) return undefined;
    if (this.failures.only && !this.failures.only.test(document)) return undefined;
    this.failures.remaining--;
    return this.failures.reply;
  }

  register(rootField: string, handler: GraphqlHandler): void {
    if (this.handlers.has(rootField))
      throw new Error(`a handler for ${rootField} is already registered`);
    this.handlers.set(rootField, handler);
  }

  /** Every operation received so far, oldest first, with its computed cost or why it was refused. */
  get operations(): readonly OperationRecord[] {
    return this.seen;
  }

  async dispatch(
    shop: string,
    body: { query?: unknown; variables?: unknown },
    scopes?: readonly string[],
  ): Promise<GraphqlResponse> {
    const query = typeof body.query === 'string' ? body.query : '';
    const variables =
      body.variables && typeof body.variables === 'object' && !Array.isArray(body.variables)
        ? (body.variables as Record<string, unknown>)
        : {};
    if (!query.trim())
      return {
        status: 400,
        body: { errors: [{ message: 'No query string was present' }] },
        headers: {},
      };
    let op: Operation;
    try {
      op = parseOperation(query);
    } catch (err) {
      if (!(err instanceof GraphqlSyntaxError)) throw err;
      this.seen.push({
        shop,
        fields: [],
        variables,
        requestedQueryCost: undefined,
        refused: 'syntax',
      });
      return ok({ errors: [{ message: err.message, locations: [err.loc] }] });
    }
    const fields = op.selections.flatMap((s) =>
      s.kind === 'field' && s.name !== '__typename' ? [s] : [],
    );
    const record: OperationRecord = {
      shop,
      fields: fields.map((f) => f.name),
      variables,
      requestedQueryCost: undefined,
      refused: undefined,
    };
    this.seen.push(record);
    const invalid = validateOperation(this.schema, op, variables);
    if (invalid.length) {
      record.refused = String(invalid[0]!.extensions?.code ?? 'invalid');
      return ok({ errors: invalid });
    }
    const requested = requestedCost(this.schema, op, variables);
    record.requestedQueryCost = requested;
    if (requested > MAX_QUERY_COST) {
      record.refused = 'MAX_COST_EXCEEDED';
      return ok({ errors: [maxCostExceeded(requested)] });
    }
    if (!this.bucket.take(shop, requested)) {
      record.refused = 'THROTTLED';
      return ok({
        errors: [THROTTLED],
        extensions: { cost: costOf(requested, null, this.bucket.status(shop)) },
      });
    }

    const data: Record<string, unknown> = {};
    const errors: unknown[] = [];
    let handlerExtensions: unknown;
    let actual = 0;
    let answered = false;
    const typeName = rootType(this.schema, op);
    for (const field of fields) {
      const key = field.alias ?? field.name;
      const handler = this.handlers.get(field.name);
      if (!handler) throw new Error(`the double has no handler for ${field.name}`);
      const result = await handler(variables, {
        shop,
        query,
        args: argumentValues(field, variables),
        cost: requested,
        field,
        ...(scopes ? { scopes } : {}),
      });
      if (result.status !== undefined) {
        this.bucket.refund(shop, requested);
        record.refused = `HTTP ${result.status}`;
        return {
          status: result.status,
          body: result.body ?? { errors: result.errors ?? [] },
          headers: result.headers ?? {},
        };
      }
      if (Array.isArray(result.errors)) errors.push(...result.errors);
      if (result.extensions !== undefined) handlerExtensions = result.extensions;
      if (!result.data || typeof result.data !== 'object') continue;
      answered = true;
      const source = (result.data as Record<string, unknown>)[field.name];
      const fieldErrors: ShopifyGraphqlError[] = [];
      const projected = project(
        this.schema,
        typeName,
        [field],
        { [field.name]: source },
        variables,
        [],
        fieldErrors,
      );
      data[key] = (projected.value as Record<string, unknown>)[key];
      errors.push(...fieldErrors);
      actual += op.operation === 'mutation' ? MUTATION_COST : projected.cost;
    }
    if (handlerExtensions !== undefined) {
      // A handler answered for the whole request (a throttled reply a test asked for): nothing ran.
      this.bucket.refund(shop, requested);
      record.refused = 'handler';
      return ok({ ...(answered ? { data } : {}), errors, extensions: handlerExtensions });
    }
    this.bucket.refund(shop, requested - actual);
    return ok({
      ...(answered ? { data } : {}),
      ...(errors.length ? { errors } : {}),
      extensions: { cost: costOf(requested, actual, this.bucket.status(shop)) },
    });
  }
}

const THROTTLED = {
  message: 'Throttled',
  extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
};

function ok(body: unknown): GraphqlResponse {
  return { status: 200, body, headers: {} };
}

/** `extensions.cost` as Shopify sends it. */
export function costOf(requested: number, actual: number | null, status: ThrottleStatus) {
  return { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: status };
}

export { FieldError };

/**
 * The root field names of the first operation: the names at brace depth one,
 * skipping aliases, arguments, directives and nested selections.
 */
export function rootFields(query: string): string[] {
  const text = query.replace(/#[^\n]*/g, '').replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const start = text.indexOf('{');
  if (start < 0) return [];
  const fields: string[] = [];
  let depth = 0;
  let parens = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(') parens++;
    else if (c === ')') parens--;
    else if (parens > 0) continue;
    else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) break;
    } else if (depth === 1 && /[A-Za-z_]/.test(c) && !/[\w@.]/.test(text[i - 1] ?? ' ')) {
      const name = /^[A-Za-z_]\w*/.exec(text.slice(i))![0];
      const after = text.slice(i + name.length).trimStart();
      // `alias: field`: the field is the name after the colon.
      if (!after.startsWith(':') && !name.startsWith('__')) fields.push(name);
      i += name.length - 1;
    }
  }
  return fields;
}
