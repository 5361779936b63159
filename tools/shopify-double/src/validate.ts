import { valueOf, type FieldNode, type Location, type Operation, type Selection } from './parse';
import type { FieldDef, Schema, TypeDef } from './schema';

/**
 * Validation of an operation against the schema, with Shopify's error
 * messages and `extensions.code`s (those of its GraphQL server), and the
 * requested cost Shopify computes before running a query.
 */

export interface ShopifyGraphqlError {
  message: string;
  locations?: Location[];
  path?: string[];
  extensions?: Record<string, unknown>;
}

/** Shopify's most a connection returns at once. */
export const MAX_PAGE_SIZE = 250;
/** Shopify's limit on one query's requested cost. */
export const MAX_QUERY_COST = 1000;
/** What Shopify charges for a mutation, whatever it selects. */
export const MUTATION_COST = 10;

export function rootType(schema: Schema, op: Operation): string {
  return op.operation === 'mutation' ? schema.mutation : schema.query;
}

/** The type definition a field of `typeName` is looked up in (an interface's own fields). */
function fieldOf(schema: Schema, typeName: string, name: string): FieldDef | undefined {
  return schema.types[typeName]?.fields[name];
}

/** The named type a field's selection is made on. */
export function selectionType(field: FieldDef): string {
  return field.kind === 'connection' ? `${field.type}Connection` : field.type;
}

function fragmentApplies(schema: Schema, parent: string, condition: string): boolean {
  if (condition === parent) return true;
  const parentDef = schema.types[parent];
  const conditionDef = schema.types[condition];
  if (parentDef?.possibleTypes?.includes(condition)) return true;
  if (conditionDef?.possibleTypes?.includes(parent)) return true;
  return Boolean(
    parentDef?.possibleTypes &&
    conditionDef?.possibleTypes?.some((t) => parentDef.possibleTypes!.includes(t)),
  );
}

/** Every error of the operation; empty when Shopify would run it. */
export function validateOperation(
  schema: Schema,
  op: Operation,
  variables: Record<string, unknown>,
): ShopifyGraphqlError[] {
  const errors: ShopifyGraphqlError[] = [];
  const opPath = op.name ? `${op.operation} ${op.name}` : op.operation;
  const opName = op.name ?? 'anonymous query';
  const declared = new Map(op.variables.map((v) => [v.name, v]));
  const used = new Set<string>();

  for (const d of [...op.directives]) errors.push(undefinedDirective(d.name, d.loc, [opPath]));
  for (const def of op.variables) {
    const problem = variableValueProblem(
      schema,
      def.type,
      variables[def.name],
      def.defaultValue !== undefined,
    );
    if (problem === 'unknown-type')
      errors.push({
        message: `${baseName(def.type)} isn't a defined input type (on $${def.name})`,
        locations: [def.loc],
        path: [opPath],
        extensions: {
          code: 'variableRequiresValidType',
          typeName: baseName(def.type),
          variableName: def.name,
        },
      });
    else if (problem)
      errors.push({
        message: `Variable $${def.name} of type ${def.type} was provided invalid value${problem === true ? '' : ` for ${problem}`}`,
        locations: [def.loc],
        extensions: { code: 'INVALID_VARIABLE', value: variables[def.name] ?? null },
      });
  }

  const visit = (typeName: string, selections: Selection[], path: string[]) => {
    for (const s of selections) {
      for (const d of s.directives) errors.push(undefinedDirective(d.name, d.loc, path));
      if (s.kind === 'inline') {
        const condition = s.typeCondition ?? typeName;
        if (!schema.types[condition]) {
          errors.push({
            message: `No such type ${condition}, so it can't be a fragment condition`,
            locations: [s.loc],
            path: [...path, `... on ${condition}`],
            extensions: { code: 'undefinedType', typeName: condition },
          });
          continue;
        }
        if (!fragmentApplies(schema, typeName, condition)) {
          errors.push({
            message: `Fragment on ${condition} can't be spread inside ${typeName}`,
            locations: [s.loc],
            path: [...path, `... on ${condition}`],
            extensions: {
              code: 'cannotSpreadFragment',
              typeName: condition,
              fragmentName: 'unknown',
              parentName: typeName,
            },
          });
          continue;
        }
        visit(condition, s.selections, [...path, `... on ${condition}`]);
        continue;
      }
      const here = [...path, s.alias ?? s.name];
      if (s.name === '__typename') {
        if (s.args.length || s.selections) errors.push(scalarSelection(s, 'String', here));
        continue;
      }
      const def = fieldOf(schema, typeName, s.name);
      if (!def) {
        errors.push({
          message: `Field '${s.name}' doesn't exist on type '${typeName}'`,
          locations: [s.loc],
          path: here,
          extensions: { code: 'undefinedField', typeName, fieldName: s.name },
        });
        continue;
      }
      checkArguments(s, def, here);
      if (def.kind === 'scalar') {
        if (s.selections) errors.push(scalarSelection(s, def.type, here));
        continue;
      }
      const inner = selectionType(def);
      if (!s.selections) {
        errors.push({
          message: `Field must have selections (field '${s.name}' returns ${inner} but has no selections. Did you mean '${s.name} { ... }'?)`,
          locations: [s.loc],
          path: here,
          extensions: { code: 'selectionMismatch', nodeName: `field '${s.name}'`, typeName: inner },
        });
        continue;
      }
      if (def.kind === 'connection') {
        const args = argumentValues(s, variables);
        const size = args.first ?? args.last;
        if (typeof size !== 'number')
          errors.push({
            message: 'you must provide one of first or last',
            locations: [s.loc],
            path: here,
          });
        else if (size > MAX_PAGE_SIZE || size < 0)
          errors.push({
            message: `The maximum page size is ${MAX_PAGE_SIZE}.`,
            locations: [s.loc],
            path: here,
          });
      }
      visit(inner, s.selections, here);
    }
  };

  const checkArguments = (field: FieldNode, def: FieldDef, path: string[]) => {
    const accepted = def.args ?? {};
    for (const arg of field.args) {
      const type = accepted[arg.name];
      if (!type) {
        errors.push({
          message: `Field '${field.name}' doesn't accept argument '${arg.name}'`,
          locations: [arg.loc],
          path: [...path, arg.name],
          extensions: {
            code: 'argumentNotAccepted',
            name: field.name,
            typeName: 'Field',
            argumentName: arg.name,
          },
        });
        continue;
      }
      if (arg.value.kind === 'variable') {
        used.add(arg.value.name);
        const variable = declared.get(arg.value.name);
        if (!variable) {
          errors.push({
            message: `Variable $${arg.value.name} is used by ${opName} but not declared`,
            locations: [arg.loc],
            path: [...path, arg.name],
            extensions: { code: 'variableNotDefined', variableName: arg.value.name },
          });
          continue;
        }
        const fit = typeFits(variable.type, type, variable.defaultValue !== undefined);
        if (fit !== 'ok')
          errors.push({
            message: `${fit === 'nullability' ? 'Nullability' : 'Type'} mismatch on variable $${variable.name} and argument ${arg.name} (${variable.type} / ${type})`,
            locations: [arg.loc],
            path: [...path, arg.name],
            extensions: {
              code: 'variableMismatch',
              variableName: variable.name,
              typeName: variable.type,
              argumentName: arg.name,
              errorMessage: `${fit === 'nullability' ? 'Nullability' : 'Type'} mismatch`,
            },
          });
      } else if (!literalFits(schema, valueOf(arg.value, {}), type, arg.value.kind)) {
        errors.push({
          message: `Argument '${arg.name}' on Field '${field.name}' has an invalid value (${literalText(arg.value)}). Expected type '${type}'.`,
          locations: [arg.loc],
          path: [...path, arg.name],
          extensions: {
            code: 'argumentLiteralsIncompatible',
            typeName: 'Field',
            argumentName: arg.name,
          },
        });
      }
    }
    const missing = Object.entries(accepted)
      .filter(([name, type]) => type.endsWith('!') && !field.args.some((a) => a.name === name))
      .map(([name]) => name);
    if (missing.length)
      errors.push({
        message: `Field '${field.name}' is missing required arguments: ${missing.join(', ')}`,
        locations: [field.loc],
        path,
        extensions: {
          code: 'missingRequiredArguments',
          className: 'Field',
          name: field.name,
          arguments: missing.join(', '),
        },
      });
  };

  visit(rootType(schema, op), op.selections, [opPath]);
  for (const def of op.variables)
    if (!used.has(def.name))
      errors.push({
        message: `Variable $${def.name} is declared by ${opName} but not used`,
        locations: [def.loc],
        path: [opPath],
        extensions: { code: 'variableNotUsed', variableName: def.name },
      });
  return errors;
}

function undefinedDirective(name: string, loc: Location, path: string[]): ShopifyGraphqlError {
  return {
    message: `Directive @${name} is not defined`,
    locations: [loc],
    path,
    extensions: { code: 'undefinedDirective', directiveName: name },
  };
}

function scalarSelection(field: FieldNode, type: string, path: string[]): ShopifyGraphqlError {
  return {
    message: `Selections can't be made on scalars (field '${field.name}' returns ${type} but has selections [${(field.selections ?? []).map((s) => (s.kind === 'field' ? s.name : '...')).join(', ')}])`,
    locations: [field.loc],
    path,
    extensions: { code: 'selectionMismatch', nodeName: `field '${field.name}'`, typeName: type },
  };
}

function baseName(type: string): string {
  return type.replace(/[[\]!]/g, '');
}

/** Whether a variable of type `variable` may stand where `argument` is expected. */
function typeFits(
  variable: string,
  argument: string,
  hasDefault: boolean,
): 'ok' | 'type' | 'nullability' {
  if (argument.endsWith('!')) {
    if (!variable.endsWith('!') && !hasDefault) {
      return typeFits(variable, argument.slice(0, -1), false) === 'ok' ? 'nullability' : 'type';
    }
    return typeFits(
      variable.endsWith('!') ? variable.slice(0, -1) : variable,
      argument.slice(0, -1),
      false,
    );
  }
  const v = variable.endsWith('!') ? variable.slice(0, -1) : variable;
  if (argument.startsWith('[')) {
    if (!v.startsWith('[')) return 'type';
    return typeFits(v.slice(1, -1), argument.slice(1, -1), false);
  }
  return v === argument ? 'ok' : 'type';
}

const SCALARS: Record<string, (v: unknown) => boolean> = {
  Int: (v) => Number.isInteger(v) && Math.abs(v as number) <= 2 ** 31 - 1,
  Float: (v) => typeof v === 'number' && Number.isFinite(v),
  String: (v) => typeof v === 'string',
  URL: (v) => typeof v === 'string',
  ID: (v) => typeof v === 'string' || Number.isInteger(v),
  Boolean: (v) => typeof v === 'boolean',
  // Shopify's Decimal takes a number or a decimal string.
  Decimal: (v) =>
    (typeof v === 'number' && Number.isFinite(v)) ||
    (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)),
};

/**
 * What is wrong with a variable's value for its declared type: false when
 * nothing, 'unknown-type' when the type is not an input type, true or the
 * name of the offending input field otherwise.
 */
function variableValueProblem(
  schema: Schema,
  type: string,
  value: unknown,
  hasDefault: boolean,
): false | true | string | 'unknown-type' {
  const name = baseName(type);
  if (!schema.leafTypes.has(name) && !schema.inputs[name]) return 'unknown-type';
  return valueProblem(schema, type, value, hasDefault);
}

function valueProblem(
  schema: Schema,
  type: string,
  value: unknown,
  hasDefault = false,
): false | true | string {
  if (type.endsWith('!')) {
    if (value === undefined || value === null) return !hasDefault;
    return valueProblem(schema, type.slice(0, -1), value);
  }
  if (value === undefined || value === null) return false;
  if (type.startsWith('[')) {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      const problem = valueProblem(schema, type.slice(1, -1), item);
      if (problem) return problem;
    }
    return false;
  }
  const check = SCALARS[type];
  if (check) return !check(value);
  const input = schema.inputs[type];
  if (input) {
    if (typeof value !== 'object' || Array.isArray(value)) return true;
    for (const key of Object.keys(value))
      if (!input[key]) return `${key} (Field is not defined on ${type})`;
    for (const [key, fieldType] of Object.entries(input)) {
      const problem = valueProblem(schema, fieldType, (value as Record<string, unknown>)[key]);
      if (problem) return problem === true ? `${key} (Expected value to be ${fieldType})` : problem;
    }
    return false;
  }
  // Enums: a name.
  return typeof value !== 'string';
}

function literalFits(schema: Schema, value: unknown, type: string, kind: string): boolean {
  const base = type.endsWith('!') ? type.slice(0, -1) : type;
  if (value === null) return !type.endsWith('!');
  if (base.startsWith('[')) {
    const items = Array.isArray(value) ? value : [value];
    return items.every((item) =>
      literalFits(schema, item, base.slice(1, -1), kind === 'list' ? 'item' : kind),
    );
  }
  if (SCALARS[base]) return SCALARS[base](value);
  if (schema.inputs[base]) return !valueProblem(schema, base, value);
  return kind === 'enum' || kind === 'item';
}

function literalText(value: { kind: string }): string {
  return JSON.stringify(valueOf(value as never, {}));
}

/** A field's arguments with the request's variables substituted. */
export function argumentValues(
  field: FieldNode,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(field.args.map((a) => [a.name, valueOf(a.value, variables)]));
}

// ---- requested cost ----------------------------------------------------------------

/**
 * The cost Shopify computes before running a query: scalars and enums 0,
 * an object 1 plus its selection, a connection 2 plus (first|last) times one
 * node (1 plus its selection; edges, cursor and pageInfo are part of the
 * connection), a list as long as its argument (`nodes(ids:)`) that many
 * objects, an abstract type's selection the dearest of its fragments, and a
 * mutation 10. Nested connections multiply.
 */
export function requestedCost(
  schema: Schema,
  op: Operation,
  variables: Record<string, unknown>,
): number {
  if (op.operation === 'mutation')
    return (
      MUTATION_COST *
      op.selections.filter((s) => s.kind === 'field' && s.name !== '__typename').length
    );
  return selectionCost(schema, rootType(schema, op), op.selections, variables, 1);
}

function selectionCost(
  schema: Schema,
  typeName: string,
  selections: Selection[],
  variables: Record<string, unknown>,
  listSize: number,
): number {
  const type: TypeDef | undefined = schema.types[typeName];
  let common = 0;
  let views = 0;
  const fragments = new Map<string, number>();
  for (const s of selections) {
    if (s.kind === 'inline') {
      const condition = s.typeCondition ?? typeName;
      const cost = selectionCost(schema, condition, s.selections, variables, listSize);
      if (condition === typeName) common += cost;
      else fragments.set(condition, (fragments.get(condition) ?? 0) + cost);
      continue;
    }
    const def = type?.fields[s.name];
    if (!def) continue;
    const cost = fieldCost(schema, def, s, variables, listSize);
    // A connection's edges and nodes are two views of the same page: charged once.
    if (type?.connection && (s.name === 'edges' || s.name === 'nodes'))
      views = Math.max(views, cost);
    else common += cost;
  }
  return common + views + Math.max(0, ...fragments.values());
}

function fieldCost(
  schema: Schema,
  def: FieldDef,
  field: FieldNode,
  variables: Record<string, unknown>,
  listSize: number,
): number {
  const inner = field.selections ?? [];
  switch (def.kind) {
    case 'scalar':
      return 0;
    case 'object':
      return (def.free ? 0 : 1) + selectionCost(schema, def.type, inner, variables, 1);
    case 'list': {
      const size = def.sizeArg ? lengthOf(argumentValues(field, variables)[def.sizeArg]) : listSize;
      return size * ((def.free ? 0 : 1) + selectionCost(schema, def.type, inner, variables, 1));
    }
    case 'connection': {
      const args = argumentValues(field, variables);
      const size = Number(args.first ?? args.last ?? 0) || 0;
      return 2 + selectionCost(schema, `${def.type}Connection`, inner, variables, size);
    }
  }
}

function lengthOf(value: unknown): number {
  return Array.isArray(value) ? value.length : value === undefined || value === null ? 0 : 1;
}

export function maxCostExceeded(cost: number): ShopifyGraphqlError {
  return {
    message: `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`,
    extensions: { code: 'MAX_COST_EXCEEDED', cost, maxCost: MAX_QUERY_COST },
  };
}
