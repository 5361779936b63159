/**
 * The Admin GraphQL endpoint of the double. It does not implement GraphQL:
 * it finds the root fields of the operation and hands each to the handler
 * registered for that field name (carrier services, products, ...), which
 * reads the operation's variables. Handlers return the usual
 * `{data, errors, extensions}`, or an HTTP status (429, 500, ...) to answer
 * the whole request with.
 */
export interface GraphqlContext {
  shop: string;
  /** The operation text, for handlers that want to look at the selection. */
  query: string;
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

export class GraphqlDispatcher {
  private readonly handlers = new Map<string, GraphqlHandler>();
  private readonly seen: { shop: string; fields: string[]; variables: Record<string, unknown> }[] =
    [];

  private failures: { reply: GraphqlResponse; remaining: number } | undefined;

  /** The next `count` GraphQL requests of any shop answer `status` (Shopify down, throttling). */
  failNext(status: number, count = 1, body: unknown = { errors: 'Internal error' }): void {
    this.failures = { reply: { status, body, headers: {} }, remaining: count };
  }

  /**
   * The next failure set by failNext, if any is left (consumed). The server
   * asks before it checks the access token: Shopify down answers 5xx
   * whatever the token.
   */
  takeFailure(): GraphqlResponse | undefined {
    if (!this.failures || this.failures.remaining <= 0) return undefined;
    this.failures.remaining--;
    return this.failures.reply;
  }

  register(rootField: string, handler: GraphqlHandler): void {
    if (this.handlers.has(rootField))
      throw new Error(`a handler for ${rootField} is already registered`);
    this.handlers.set(rootField, handler);
  }

  /** Every operation received so far (root fields and variables), oldest first. */
  get operations(): readonly {
    shop: string;
    fields: string[];
    variables: Record<string, unknown>;
  }[] {
    return this.seen;
  }

  async dispatch(
    shop: string,
    body: { query?: unknown; variables?: unknown },
  ): Promise<GraphqlResponse> {
    const query = typeof body.query === 'string' ? body.query : '';
    const variables =
      body.variables && typeof body.variables === 'object'
        ? (body.variables as Record<string, unknown>)
        : {};
    const fields = rootFields(query);
    if (!fields.length)
      return {
        status: 400,
        body: { errors: [{ message: 'No query string was present' }] },
        headers: {},
      };
    this.seen.push({ shop, fields, variables });
    const data: Record<string, unknown> = {};
    const errors: unknown[] = [];
    let extensions: unknown = defaultCost();
    for (const field of fields) {
      const handler = this.handlers.get(field);
      if (!handler) {
        errors.push({ message: `Field '${field}' doesn't exist on type 'QueryRoot'` });
        continue;
      }
      const result = await handler(variables, { shop, query });
      if (result.status !== undefined)
        return {
          status: result.status,
          body: result.body ?? { errors: result.errors ?? [] },
          headers: result.headers ?? {},
        };
      if (result.data && typeof result.data === 'object') Object.assign(data, result.data);
      if (Array.isArray(result.errors)) errors.push(...result.errors);
      if (result.extensions !== undefined) extensions = result.extensions;
    }
    return {
      status: 200,
      body: { data, ...(errors.length ? { errors } : {}), extensions },
      headers: {},
    };
  }
}

function defaultCost() {
  return {
    cost: {
      requestedQueryCost: 10,
      actualQueryCost: 10,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1990, restoreRate: 100 },
    },
  };
}

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
