import { randomBytes } from 'node:crypto';
import { Kind, parse, type FieldNode, type SelectionSetNode } from 'graphql';
import type { DoubleProduct } from './demo-catalog';
import type { GraphqlDispatcher } from './graphql';
import { productNode } from './products';

/**
 * Shopify's bulk query operations (Admin API 2026-10: `bulkOperationRunQuery`,
 * `bulkOperation(id:)`), for the one export the app runs: the shop's products
 * with scalar fields of each (`{ products { edges { node { ... } } } }` or
 * `nodes`). As Shopify does, a shop runs one bulk query at a time
 * (OPERATION_IN_PROGRESS), an operation starts CREATED and later reads
 * COMPLETED with a `url` to a JSONL file (one product a line; no url when
 * there are none), and the file is read without the shop's token. What
 * Shopify would take but the app never sends (nested connections, other
 * roots) the double refuses as INVALID, so an app document it accepts is one
 * Shopify accepts.
 */

type Status = 'CREATED' | 'RUNNING' | 'COMPLETED' | 'FAILED';

interface Operation {
  id: string;
  shop: string;
  query: string;
  status: Status;
  createdAt: string;
  completedAt: string | null;
  /** The file's lines, made when the operation is created (the catalog as it was then). */
  lines: string[];
  /** The unguessable path of its file. */
  fileKey: string;
  /** Status reads left before it completes. */
  readsToComplete: number;
}

/** Where the double serves the files: `${url}${BULK_FILES_PATH}<key>.jsonl`. */
export const BULK_FILES_PATH = '/__bulk/';

export class BulkOperationsDouble {
  private readonly operations = new Map<string, Operation>();
  private next = 1;
  /** How many status reads an operation stays RUNNING for (tests of polling set more). */
  private statusReads = 1;
  private failNextOperation = false;

  constructor(
    graphql: GraphqlDispatcher,
    private readonly catalogOf: (shop: string) => readonly DoubleProduct[],
    private readonly baseUrl: () => string,
  ) {
    graphql.register('bulkOperationRunQuery', (_v, { shop, args = {} }) => ({
      data: { bulkOperationRunQuery: this.run(shop, String(args.query ?? '')) },
    }));
    graphql.register('bulkOperation', (_v, { shop, args = {} }) => ({
      data: { bulkOperation: this.read(shop, String(args.id ?? '')) },
    }));
  }

  /** Later operations stay RUNNING for `reads` status reads before they complete. */
  completeAfterReads(reads: number): void {
    this.statusReads = reads;
  }

  /** The next operation ends FAILED (INTERNAL_SERVER_ERROR), as Shopify's sometimes do. */
  failNext(): void {
    this.failNextOperation = true;
  }

  /** Every operation a shop started, oldest first. */
  startedBy(shop: string): { id: string; status: Status }[] {
    return [...this.operations.values()]
      .filter((op) => op.shop === shop)
      .map(({ id, status }) => ({ id, status }));
  }

  /** The JSONL file behind a `url` the double gave; undefined for an unknown key. */
  file(key: string): string | undefined {
    for (const op of this.operations.values()) {
      if (op.fileKey === key && op.status === 'COMPLETED') return op.lines.join('\n') + '\n';
    }
    return undefined;
  }

  private run(shop: string, query: string) {
    const running = [...this.operations.values()].some(
      (op) => op.shop === shop && (op.status === 'CREATED' || op.status === 'RUNNING'),
    );
    if (running)
      return refused(
        'OPERATION_IN_PROGRESS',
        `A bulk query operation for this app and shop is already in progress: ${this.latest(shop)!.id}.`,
      );
    const selection = productsSelection(query);
    if (typeof selection === 'string') return refused('INVALID', selection);
    const id = `gid://shopify/BulkOperation/${this.next++}`;
    const lines = this.catalogOf(shop).map((product) =>
      JSON.stringify(pick(productNode(product), selection)),
    );
    const op: Operation = {
      id,
      shop,
      query,
      status: 'CREATED',
      createdAt: new Date().toISOString(),
      completedAt: null,
      lines,
      fileKey: randomBytes(16).toString('hex'),
      readsToComplete: this.statusReads,
    };
    if (this.failNextOperation) {
      this.failNextOperation = false;
      op.status = 'FAILED';
    }
    this.operations.set(id, op);
    return { bulkOperation: this.shape(op), userErrors: [] };
  }

  private read(shop: string, id: string) {
    const op = this.operations.get(id);
    // Another shop's operation is no operation of this one: null, as Shopify answers.
    if (!op || op.shop !== shop) return null;
    if (op.status === 'CREATED' || op.status === 'RUNNING') {
      if (op.readsToComplete-- > 0) op.status = 'RUNNING';
      else {
        op.status = 'COMPLETED';
        op.completedAt = new Date().toISOString();
      }
    }
    return this.shape(op);
  }

  private latest(shop: string): Operation | undefined {
    return [...this.operations.values()].filter((op) => op.shop === shop).at(-1);
  }

  private shape(op: Operation) {
    const completed = op.status === 'COMPLETED';
    const file = op.lines.length ? op.lines.join('\n').length + 1 : 0;
    return {
      id: op.id,
      status: op.status,
      errorCode: op.status === 'FAILED' ? 'INTERNAL_SERVER_ERROR' : null,
      createdAt: op.createdAt,
      completedAt: op.completedAt,
      objectCount: String(completed ? op.lines.length : 0),
      rootObjectCount: String(completed ? op.lines.length : 0),
      fileSize: completed && file ? String(file) : null,
      // No objects, no file: Shopify's url is null then.
      url:
        completed && op.lines.length
          ? `${this.baseUrl()}${BULK_FILES_PATH}${op.fileKey}.jsonl`
          : null,
      partialDataUrl: null,
      query: op.query,
      type: 'QUERY',
    };
  }
}

function refused(code: string, message: string) {
  return { bulkOperation: null, userErrors: [{ field: ['query'], message, code }] };
}

/**
 * The scalar fields a bulk query asks of each product, or why the double
 * refuses the query: one root field `products` (no arguments but `query`),
 * and under `edges { node { ... } }` or `nodes { ... }` scalar fields only.
 */
function productsSelection(query: string): string[] | string {
  let document;
  try {
    document = parse(query);
  } catch (err) {
    return `Invalid bulk query: ${(err as Error).message}`;
  }
  const [definition, ...more] = document.definitions;
  if (!definition || more.length || definition.kind !== Kind.OPERATION_DEFINITION)
    return 'Invalid bulk query: one query is expected.';
  const roots = fields(definition.selectionSet);
  const root = roots[0];
  if (roots.length !== 1 || root?.name.value !== 'products')
    return 'The double exports only `products` in a bulk query.';
  if ((root.arguments ?? []).some((a) => a.name.value !== 'query'))
    return 'Bulk queries do not take page arguments: a connection is read whole.';
  const [view] = fields(root.selectionSet);
  const node =
    view?.name.value === 'edges'
      ? fields(view.selectionSet).find((f) => f.name.value === 'node')
      : view?.name.value === 'nodes'
        ? view
        : undefined;
  if (!node) return 'A bulk query of a connection selects `edges { node }` or `nodes`.';
  const selected = fields(node.selectionSet);
  if (selected.some((f) => f.selectionSet))
    return 'The double exports scalar fields of products only.';
  const known = productNode({
    id: 0,
    title: '',
    handle: '',
    vendor: '',
    image: null,
    variants: [],
  });
  const unknown = selected.find((f) => !(f.name.value in known));
  if (unknown) return `Field '${unknown.name.value}' doesn't exist on type 'Product'`;
  return selected.map((f) => f.name.value);
}

function fields(set: SelectionSetNode | undefined): FieldNode[] {
  return (set?.selections ?? []).filter((s): s is FieldNode => s.kind === Kind.FIELD);
}

function pick(node: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, node[key]]));
}
