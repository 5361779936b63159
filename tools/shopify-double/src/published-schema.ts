import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import {
  astFromValue,
  buildSchema,
  getNamedType,
  getNullableType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  isUnionType,
  Kind,
  parse,
  print,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type GraphQLArgument,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLType,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import type { Schema } from './schema';

/**
 * Shopify's published Admin GraphQL schema, as the extract in
 * `../published-schema/` keeps it (its README says where it comes from), and
 * what the tests check against it: the app's documents, the double's own
 * schema (`schema.ts`) and the requested cost Shopify documents.
 */

export const REPO_ROOT = join(__dirname, '..', '..', '..');
export const PUBLISHED_DIR = join(__dirname, '..', 'published-schema');
/** The Admin API version the extract is of; the app pins the same one. */
export const PUBLISHED_VERSION = '2026-10';
export const PUBLISHED_SDL = join(PUBLISHED_DIR, `admin-${PUBLISHED_VERSION}.graphql`);

export function loadPublishedSchema(file = PUBLISHED_SDL): GraphQLSchema {
  return buildSchema(readFileSync(file, 'utf8'));
}

// ---- the app's documents ------------------------------------------------------------

export interface AppDocument {
  /** The operation's name (`RatesmithProducts`). */
  name: string;
  /** Where it is written, from the repository's root. */
  file: string;
  text: string;
}

/**
 * Every GraphQL document the services send: in each source file under
 * `services/<service>/src` (tests left out), the string constants (quotes or
 * backticks) that start with `query` or `mutation` once `${NAME}` is filled in
 * from the file's earlier constants or the constants it imports by name from a
 * relative module (`import { ZONE_FIELDS } from './delivery-profiles'`). A file that names an operation
 * (`query Name (` / `mutation Name {` at the start of a string) this reading
 * cannot rebuild is an error, so no document is skipped unseen.
 */
export function findAppDocuments(root = REPO_ROOT): AppDocument[] {
  const documents: AppDocument[] = [];
  for (const file of sourceFiles(join(root, 'services'))) {
    const source = readFileSync(file, 'utf8');
    const where = relative(root, file);
    const found = new Set<string>();
    for (const [name, text] of fileConstants(file)) {
      const doc = text.replace(/^#graphql\s*/, '').trim();
      const operation = /^(?:query|mutation)\s+(\w+)/.exec(doc)?.[1];
      if (!operation || name.startsWith('import:')) continue;
      if (/\$\{/.test(doc))
        throw new Error(`${where}: ${operation} uses a value that is not a constant of the file`);
      documents.push({ name: operation, file: where, text: doc });
      found.add(operation);
    }
    for (const m of source.matchAll(
      /[`'"]\s*(?:#graphql\s*)?(?:query|mutation)\s+([A-Z]\w*)\s*[({]/g,
    ))
      if (!found.has(m[1]!))
        throw new Error(`${where}: ${m[1]} is sent but is not a plain string constant`);
  }
  return documents.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A source file's string and number constants in order, each with `${NAME}`
 * filled in from the constants before it; constants imported by name from a
 * relative module come first, under `import:NAME` keys so the caller can
 * tell them from the file's own.
 */
function fileConstants(file: string, seen = new Set<string>()): Map<string, string> {
  const consts = new Map<string, string>();
  if (seen.has(file)) return consts;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const m of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(\.[^']+)'/g)) {
    const from = join(dirname(file), m[2]!.replace(/\.js$/, '')) + '.ts';
    let theirs: Map<string, string>;
    try {
      theirs = fileConstants(from, seen);
    } catch {
      continue;
    }
    for (const item of m[1]!.split(',')) {
      const name = item.replace(/^\s*type\s+/, '').trim();
      const text = theirs.get(name);
      if (text !== undefined) consts.set(`import:${name}`, text);
    }
  }
  const lookup = (name: string) => consts.get(name) ?? consts.get(`import:${name}`);
  for (const m of source.matchAll(/const (\w+)\s*=\s*(`[^`]*`|'[^'\n]*'|"[^"\n]*"|\d+);/g)) {
    const raw = m[2]!;
    let text = raw;
    if (!/^\d/.test(raw)) {
      text = raw.slice(1, -1);
      if (raw.startsWith('`'))
        text = text.replace(/\$\{(\w+)\}/g, (whole, name: string) => lookup(name) ?? whole);
    }
    consts.set(m[1]!, text);
  }
  return consts;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const service of readdirSync(dir, { withFileTypes: true })) {
    if (!service.isDirectory()) continue;
    const src = join(dir, service.name, 'src');
    let entries;
    try {
      entries = readdirSync(src, { recursive: true, withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries)
      if (e.isFile() && /\.tsx?$/.test(e.name) && !/\.(spec|test)\.tsx?$/.test(e.name))
        files.push(join(e.parentPath, e.name));
  }
  return files.sort();
}

// ---- the extract --------------------------------------------------------------------

/** The root fields the extract keeps: the app's and the double's, and delivery profiles. */
export const EXTRACT_QUERY_FIELDS = [
  'products',
  'product',
  'nodes',
  'shop',
  'carrierServices',
  'carrierService',
  'deliveryProfiles',
  'deliveryProfile',
  'bulkOperation',
  'productVendors',
  'productTypes',
  'productTags',
];
export const EXTRACT_MUTATION_FIELDS = [
  'carrierServiceCreate',
  'carrierServiceUpdate',
  'carrierServiceDelete',
  'deliveryProfileUpdate',
  'bulkOperationRunQuery',
];
/**
 * Object types kept whole besides those the documents and the double use and
 * the `Delivery*` family (delivery profiles, zones, methods, carrier
 * services): the small values those types return.
 */
export const EXTRACT_EXTRA_TYPES = [
  'PageInfo',
  'Count',
  'MoneyV2',
  'Weight',
  'UserError',
  'Location',
  'LocationAddress',
];

/**
 * An SDL extract of `full` (the whole published schema): from the root fields
 * above (or `roots`), every type reached through fields into kept types, where an object,
 * interface or union type is kept when a document or the double selects one
 * of its fields, when its name starts with `Delivery`, when it is listed in
 * EXTRACT_EXTRA_TYPES, when it is a member of a kept union, or when it is the
 * connection or edge of a kept type. Each kept type shows every field of
 * Shopify's whose type is a scalar, an enum or a kept type, with all its
 * arguments (input objects whole, every enum value); the names of the fields
 * left out are listed in a `# not kept:` comment. No description is copied.
 */
export function extractSdl(
  full: GraphQLSchema,
  seeds: { documents: string[]; double: Schema },
  header: string[],
  roots: { query: string[]; mutation: string[]; extra: string[] } = {
    query: EXTRACT_QUERY_FIELDS,
    mutation: EXTRACT_MUTATION_FIELDS,
    extra: EXTRACT_EXTRA_TYPES,
  },
): string {
  const used = new Set<string>();
  for (const text of seeds.documents) {
    const info = new TypeInfo(full);
    visit(
      parse(text),
      visitWithTypeInfo(info, {
        Field() {
          const parent = info.getParentType();
          if (parent) used.add(parent.name);
        },
      }),
    );
  }
  for (const [name, def] of Object.entries(seeds.double.types))
    if (Object.keys(def.fields).length && full.getType(name)) used.add(name);

  const keptComposite = (type: GraphQLNamedType, seen = new Set<string>()): boolean => {
    if (!(isObjectType(type) || isInterfaceType(type) || isUnionType(type))) return false;
    if (seen.has(type.name)) return false;
    seen.add(type.name);
    if (used.has(type.name) || type.name.startsWith('Delivery')) return true;
    if (roots.extra.includes(type.name)) return true;
    if (/(Connection|Edge)$/.test(type.name) && !isUnionType(type)) {
      const fields = type.getFields();
      const item = fields.nodes ?? fields.node;
      if (item) return keptComposite(getNamedType(item.type), seen);
    }
    return false;
  };
  const kept = (type: GraphQLNamedType): boolean =>
    isLeafType(type) || isInputObjectType(type) || keptComposite(type);

  const reached = new Map<string, GraphQLNamedType>();
  const queue: GraphQLNamedType[] = [];
  const reach = (type: GraphQLNamedType) => {
    if (reached.has(type.name)) return;
    reached.set(type.name, type);
    queue.push(type);
  };
  const queryRoot = full.getQueryType()!;
  const mutationRoot = full.getMutationType();
  const rootFields = new Map<string, string[]>([
    [queryRoot.name, roots.query],
    ...(mutationRoot ? [[mutationRoot.name, roots.mutation] as [string, string[]]] : []),
  ]);
  const shownFields = (type: GraphQLObjectType | GraphQLNamedType) => {
    if (!(isObjectType(type) || isInterfaceType(type))) return { shown: [], left: [] };
    const only = rootFields.get(type.name);
    const all = Object.values(type.getFields() as Record<string, GraphQLField<unknown, unknown>>);
    const shown = all.filter((f) =>
      only ? only.includes(f.name) : kept(getNamedType(f.type) as GraphQLNamedType),
    );
    const left = only ? [] : all.filter((f) => !shown.includes(f)).map((f) => f.name);
    return { shown, left };
  };
  reach(queryRoot);
  if (mutationRoot) reach(mutationRoot);
  while (queue.length) {
    const type = queue.shift()!;
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const f of shownFields(type).shown) {
        reach(getNamedType(f.type) as GraphQLNamedType);
        for (const a of f.args) reach(getNamedType(a.type) as GraphQLNamedType);
      }
      // An interface's kept members (`... on Product` inside `nodes`).
      if (isInterfaceType(type))
        for (const t of full.getPossibleTypes(type)) if (keptComposite(t)) reach(t);
    } else if (isUnionType(type)) {
      type.getTypes().forEach(reach);
    } else if (isInputObjectType(type)) {
      for (const f of Object.values(type.getFields())) reach(getNamedType(f.type));
    }
  }

  const blocks: string[] = [];
  const rootOrder = (t: GraphQLNamedType) =>
    t === queryRoot ? 0 : t === mutationRoot ? 1 : isSpecifiedScalarType(t) ? 3 : 2;
  const types = [...reached.values()]
    .filter((t) => !isSpecifiedScalarType(t))
    .sort((a, b) => rootOrder(a) - rootOrder(b) || a.name.localeCompare(b.name));
  for (const type of types) {
    if (isScalarType(type)) blocks.push(`scalar ${type.name}`);
    else if (isEnumType(type))
      blocks.push(
        `enum ${type.name} {\n${type
          .getValues()
          .map((v) => `  ${v.name}${deprecated(v)}`)
          .join('\n')}\n}`,
      );
    else if (isUnionType(type))
      blocks.push(
        `union ${type.name} = ${type
          .getTypes()
          .map((t) => t.name)
          .sort()
          .join(' | ')}`,
      );
    else if (isInputObjectType(type))
      blocks.push(
        `input ${type.name}${type.isOneOf ? ' @oneOf' : ''} {\n${Object.values(type.getFields())
          .map((f) => `  ${inputValue(f)}`)
          .join('\n')}\n}`,
      );
    else if (isObjectType(type) || isInterfaceType(type)) {
      const { shown, left } = shownFields(type);
      if (!shown.length)
        throw new Error(`${type.name}: none of its fields is kept (keep one of their types)`);
      const interfaces = type
        .getInterfaces()
        .filter((i) => reached.has(i.name))
        .map((i) => i.name);
      const keyword = isInterfaceType(type) ? 'interface' : 'type';
      const implementsText = interfaces.length ? ` implements ${interfaces.join(' & ')}` : '';
      const lines = shown.map((f) => `  ${fieldLine(f)}`);
      const note = left.length ? `# not kept: ${left.join(', ')}\n` : '';
      blocks.push(`${note}${keyword} ${type.name}${implementsText} {\n${lines.join('\n')}\n}`);
    }
  }
  const mutationLine = mutationRoot ? `\n  mutation: ${mutationRoot.name}` : '';
  const schemaBlock = `schema {\n  query: ${queryRoot.name}${mutationLine}\n}`;
  return `${header.map((l) => `# ${l}`.trimEnd()).join('\n')}\n\n${[schemaBlock, ...blocks].join('\n\n')}\n`;
}

/** `@deprecated` where Shopify deprecates (its reason, a description, is left out). */
function deprecated(x: { deprecationReason?: string | null | undefined }): string {
  return typeof x.deprecationReason === 'string' ? ' @deprecated' : '';
}

function fieldLine(f: GraphQLField<unknown, unknown>): string {
  const args = f.args.length ? `(${f.args.map(inputValue).join(', ')})` : '';
  return `${f.name}${args}: ${String(f.type)}${deprecated(f)}`;
}

function inputValue(a: GraphQLArgument | GraphQLInputField): string {
  let text = `${a.name}: ${String(a.type)}`;
  if (a.defaultValue !== undefined) {
    const ast = astFromValue(a.defaultValue, a.type);
    if (ast) text += ` = ${print(ast)}`;
  }
  return `${text}${deprecated(a)}`;
}

// ---- requested cost, as Shopify documents it ---------------------------------------

/** A mutation's cost, whatever it selects. */
export const MUTATION_POINTS = 10;

/**
 * The requested cost of a document (one operation), computed from the
 * published schema the way Shopify's rate-limit page describes it: a scalar
 * or an enum 0, an object 1, an interface or a union the dearest of its
 * possible selections, a connection 2 plus (first or last) times one item
 * (the item's object and its selection; edges, cursor and pageInfo are part
 * of the connection), nested connections multiplied, a mutation 10. A list
 * that is not a connection counts as many objects as the argument that names
 * them holds (`nodes(ids:)`), else as one object.
 */
export function publishedRequestedCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> = {},
): number {
  const op = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (!op || op.kind !== Kind.OPERATION_DEFINITION) throw new Error('no operation');
  const defaults = new Map<string, unknown>();
  for (const v of op.variableDefinitions ?? [])
    if (v.defaultValue) defaults.set(v.variable.name.value, literal(v.defaultValue, {}));
  const vars = { ...Object.fromEntries(defaults), ...variables };
  if (op.operation === 'mutation')
    return (
      MUTATION_POINTS *
      op.selectionSet.selections.filter(
        (s) => s.kind === Kind.FIELD && s.name.value !== '__typename',
      ).length
    );
  const root = op.operation === 'query' ? schema.getQueryType() : schema.getSubscriptionType();
  if (!root) throw new Error(`no ${op.operation} type`);
  return selectionCost(schema, root, op.selectionSet, vars);
}

function selectionCost(
  schema: GraphQLSchema,
  type: GraphQLCompositeType,
  set: SelectionSetNode,
  vars: Record<string, unknown>,
): number {
  // Fields on the type itself, and per possible type those of its fragments.
  let common = 0;
  const perType = new Map<string, number>();
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      if (s.name.value === '__typename') continue;
      if (!('getFields' in type)) throw new Error(`${type.name} has no fields`);
      const field = type.getFields()[s.name.value];
      if (!field) throw new Error(`${type.name}.${s.name.value} is not in the schema`);
      common += fieldCost(schema, field, s, vars);
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      const condition = s.typeCondition
        ? (schema.getType(s.typeCondition.name.value) as GraphQLCompositeType)
        : type;
      const cost = selectionCost(schema, condition, s.selectionSet, vars);
      if (condition === type) common += cost;
      else perType.set(condition.name, (perType.get(condition.name) ?? 0) + cost);
    } else throw new Error('named fragments are not used by the app');
  }
  return common + Math.max(0, ...perType.values());
}

function fieldCost(
  schema: GraphQLSchema,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  vars: Record<string, unknown>,
): number {
  const named = getNamedType(field.type);
  if (isLeafType(named)) return 0;
  const composite = named as GraphQLCompositeType;
  const args = Object.fromEntries(
    (node.arguments ?? []).map((a) => [a.name.value, literal(a.value, vars)]),
  );
  if (isConnection(composite)) {
    const size = args.first ?? args.last;
    if (typeof size !== 'number')
      throw new Error(`${field.name}: no first or last to size the connection by`);
    const fields = composite.getFields();
    let item = 0;
    for (const s of node.selectionSet?.selections ?? []) {
      if (s.kind !== Kind.FIELD) continue;
      if (s.name.value === 'nodes') {
        const nodeType = getNamedType(fields.nodes!.type);
        // A connection of values (StringConnection): a scalar costs nothing.
        if (isLeafType(nodeType)) continue;
        item = Math.max(
          item,
          1 + selectionCost(schema, nodeType as GraphQLCompositeType, s.selectionSet!, vars),
        );
      } else if (s.name.value === 'edges') {
        // An edge and its node are one item: the node's object is the item's point.
        let edge = 1;
        for (const e of s.selectionSet!.selections) {
          if (e.kind !== Kind.FIELD || e.name.value !== 'node') continue;
          const nodeType = getNamedType(fields.edges!.type) as GraphQLObjectType;
          const inner = getNamedType(nodeType.getFields().node!.type) as GraphQLCompositeType;
          edge = 1 + selectionCost(schema, inner, e.selectionSet!, vars);
        }
        item = Math.max(item, edge);
      }
    }
    return 2 + size * item;
  }
  let count = 1;
  if (isListType(getNullableType(field.type))) {
    const sized = Object.values(args).find(Array.isArray) as unknown[] | undefined;
    if (sized) count = sized.length;
  }
  const inner = node.selectionSet ? selectionCost(schema, composite, node.selectionSet, vars) : 0;
  return count * (1 + inner);
}

/** A connection type: Shopify's `XConnection` with `edges`, `nodes` and `pageInfo`. */
export function isConnection(type: GraphQLNamedType): type is GraphQLObjectType {
  if (!isObjectType(type) || !type.name.endsWith('Connection')) return false;
  const fields = type.getFields();
  return Boolean(fields.edges && fields.pageInfo);
}

function literal(value: ValueNode, vars: Record<string, unknown>): unknown {
  switch (value.kind) {
    case Kind.VARIABLE:
      return vars[value.name.value];
    case Kind.INT:
      return Number(value.value);
    case Kind.FLOAT:
      return Number(value.value);
    case Kind.STRING:
    case Kind.ENUM:
      return value.value;
    case Kind.BOOLEAN:
      return value.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return value.values.map((v) => literal(v, vars));
    case Kind.OBJECT:
      return Object.fromEntries(value.fields.map((f) => [f.name.value, literal(f.value, vars)]));
  }
}

// ---- the double's schema against the published one ---------------------------------

/** A type as the double writes it (`[ID!]!`), of a published type. */
function typeText(type: GraphQLType): string {
  return String(type);
}

/**
 * Where the double's hand-written schema is more lenient than Shopify's, or
 * names what Shopify's lacks: root fields, fields, arguments and input fields
 * that Shopify does not have, a field whose type differs, an argument or input
 * field the double types differently or lets be null where Shopify needs a
 * value, one Shopify requires that the double does not (a request without it
 * would pass the double and fail at Shopify), and leaf types or interface
 * members Shopify does not have. Empty when the double is as strict as Shopify.
 */
export function doubleDifferences(double: Schema, published: GraphQLSchema): string[] {
  const problems: string[] = [];
  const roots: Record<string, GraphQLObjectType | null | undefined> = {
    [double.query]: published.getQueryType(),
    [double.mutation]: published.getMutationType(),
  };
  for (const [typeName, def] of Object.entries(double.types)) {
    const target = roots[typeName] ?? published.getType(typeName);
    if (!target) {
      problems.push(`type ${typeName}: Shopify has no such type`);
      continue;
    }
    if (def.possibleTypes) {
      if (!isAbstractType(target))
        problems.push(`${typeName}: not an interface or union at Shopify`);
      else {
        const possible = new Set(published.getPossibleTypes(target).map((t) => t.name));
        for (const p of def.possibleTypes)
          if (!possible.has(p))
            problems.push(`${typeName}: ${p} is not one of its types at Shopify`);
      }
    }
    if (!Object.keys(def.fields).length) continue;
    if (!(isObjectType(target) || isInterfaceType(target))) {
      problems.push(`${typeName}: has no fields at Shopify`);
      continue;
    }
    const fields = target.getFields();
    for (const [name, f] of Object.entries(def.fields)) {
      const where = `${typeName}.${name}`;
      const field = fields[name];
      if (!field) {
        problems.push(`${where}: Shopify has no such field`);
        continue;
      }
      const named = getNamedType(field.type);
      const list = isListType(getNullableType(field.type));
      const expected = f.kind === 'connection' ? `${f.type}Connection` : f.type;
      if (named.name !== expected)
        problems.push(
          `${where}: Shopify's type is ${typeText(field.type)}, the double's ${expected}`,
        );
      else if (f.kind === 'scalar' && !isLeafType(named))
        problems.push(`${where}: not a scalar or enum at Shopify`);
      else if ((f.kind === 'object' || f.kind === 'connection') && list)
        problems.push(`${where}: a list at Shopify`);
      else if (f.kind === 'list' && !list) problems.push(`${where}: not a list at Shopify`);
      compareInputs(where, 'argument', f.args ?? {}, field.args, problems);
    }
  }
  for (const [name, fields] of Object.entries(double.inputs)) {
    const target = published.getType(name);
    if (!target || !isInputObjectType(target)) {
      problems.push(`input ${name}: Shopify has no such input type`);
      continue;
    }
    compareInputs(`input ${name}`, 'field', fields, Object.values(target.getFields()), problems);
  }
  for (const leaf of double.leafTypes) {
    const target = published.getType(leaf);
    if (!target || !isLeafType(target))
      problems.push(`leaf type ${leaf}: not a scalar or enum at Shopify`);
  }
  return problems;
}

function compareInputs(
  where: string,
  what: 'argument' | 'field',
  declared: Record<string, string>,
  published: readonly (GraphQLArgument | GraphQLInputField)[],
  problems: string[],
) {
  const byName = new Map(published.map((a) => [a.name, a]));
  for (const [name, type] of Object.entries(declared)) {
    const theirs = byName.get(name);
    if (!theirs) {
      problems.push(`${where}: Shopify has no ${what} ${name}`);
      continue;
    }
    const problem = looser(type, theirs.type);
    if (problem)
      problems.push(
        `${where}(${name}): the double's ${type}, Shopify's ${String(theirs.type)}: ${problem}`,
      );
  }
  for (const theirs of published)
    if (
      isNonNullType(theirs.type) &&
      theirs.defaultValue === undefined &&
      !(theirs.name in declared)
    )
      problems.push(
        `${where}: Shopify requires ${what} ${theirs.name} (${String(theirs.type)}), the double does not declare it`,
      );
}

/** Why a type the double declares accepts more than Shopify's, or differs from it; '' when it does not. */
function looser(ours: string, theirs: GraphQLType): string {
  const ourNonNull = ours.endsWith('!');
  const inner = ourNonNull ? ours.slice(0, -1) : ours;
  if (isNonNullType(theirs) && !ourNonNull) return 'the double lets it be null';
  const t = isNonNullType(theirs) ? theirs.ofType : theirs;
  if (isListType(t)) {
    if (!inner.startsWith('[')) return 'not a list in the double';
    return looser(inner.slice(1, -1), t.ofType);
  }
  if (inner.startsWith('[')) return 'a list in the double only';
  return inner === (t as GraphQLNamedType).name ? '' : 'another type';
}
