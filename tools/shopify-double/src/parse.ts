/**
 * A parser for the part of GraphQL the app sends: one operation (query or
 * mutation, optional name), variable definitions with defaults, fields with
 * aliases, arguments (variables and literals) and nested selections, inline
 * fragments `... on Type`, and directives (parsed so they can be refused).
 * Named fragments are not part of it: the app writes none, and the double
 * refuses them rather than guess.
 */

export interface Location {
  line: number;
  column: number;
}

export type Value =
  | { kind: 'variable'; name: string }
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  | { kind: 'enum'; value: string }
  | { kind: 'list'; values: Value[] }
  | { kind: 'object'; fields: Record<string, Value> };

export interface Argument {
  name: string;
  value: Value;
  loc: Location;
}

export interface Directive {
  name: string;
  loc: Location;
}

export interface FieldNode {
  kind: 'field';
  alias: string | undefined;
  name: string;
  args: Argument[];
  directives: Directive[];
  selections: Selection[] | undefined;
  loc: Location;
}

export interface InlineFragment {
  kind: 'inline';
  /** undefined for `... { }` without a type condition. */
  typeCondition: string | undefined;
  directives: Directive[];
  selections: Selection[];
  loc: Location;
}

export type Selection = FieldNode | InlineFragment;

export interface VariableDefinition {
  name: string;
  /** As written: `Int`, `[ID!]!`, `DeliveryCarrierServiceCreateInput!`. */
  type: string;
  defaultValue: Value | undefined;
  loc: Location;
}

export interface Operation {
  operation: 'query' | 'mutation';
  name: string | undefined;
  variables: VariableDefinition[];
  directives: Directive[];
  selections: Selection[];
  loc: Location;
}

/** A syntax error, with where it happened (Shopify answers these with `locations`). */
export class GraphqlSyntaxError extends Error {
  constructor(
    message: string,
    readonly loc: Location,
  ) {
    super(message);
  }
}

type TokenKind = 'name' | 'int' | 'float' | 'string' | 'punct' | 'eof';
interface Token {
  kind: TokenKind;
  text: string;
  loc: Location;
}

const PUNCT = new Set(['{', '}', '(', ')', '[', ']', ':', '$', '!', '=', '@']);

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const loc = (at: number): Location => ({ line, column: at - lineStart + 1 });
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\n') {
      line++;
      lineStart = ++i;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === ',' || c === '\ufeff') {
      i++;
    } else if (c === '#') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (c === '.') {
      if (source.startsWith('...', i)) {
        tokens.push({ kind: 'punct', text: '...', loc: loc(i) });
        i += 3;
      } else throw new GraphqlSyntaxError(`Unexpected character '.'`, loc(i));
    } else if (PUNCT.has(c)) {
      tokens.push({ kind: 'punct', text: c, loc: loc(i) });
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      const name = /^[A-Za-z_]\w*/.exec(source.slice(i))![0];
      tokens.push({ kind: 'name', text: name, loc: loc(i) });
      i += name.length;
    } else if (/[-\d]/.test(c)) {
      const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(source.slice(i));
      if (!number) throw new GraphqlSyntaxError(`Unexpected character '${c}'`, loc(i));
      tokens.push({
        kind: number[2] || number[3] ? 'float' : 'int',
        text: number[0],
        loc: loc(i),
      });
      i += number[0].length;
    } else if (c === '"') {
      if (source.startsWith('"""', i))
        throw new GraphqlSyntaxError('Block strings are not supported by the double', loc(i));
      const start = loc(i);
      let text = '';
      i++;
      for (;;) {
        const ch = source[i];
        if (ch === undefined || ch === '\n')
          throw new GraphqlSyntaxError('Unterminated string', start);
        i++;
        if (ch === '"') break;
        if (ch !== '\\') {
          text += ch;
          continue;
        }
        const esc = source[i++];
        if (esc === 'u') {
          text += String.fromCharCode(parseInt(source.slice(i, i + 4), 16));
          i += 4;
        } else {
          const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };
          text += esc === undefined ? '' : (map[esc] ?? esc);
        }
      }
      tokens.push({ kind: 'string', text, loc: start });
    } else {
      throw new GraphqlSyntaxError(`Unexpected character '${c}'`, loc(i));
    }
  }
  tokens.push({ kind: 'eof', text: '', loc: { line, column: i - lineStart + 1 } });
  return tokens;
}

class Parser {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.at]!;
  }

  private next(): Token {
    return this.tokens[this.at++]!;
  }

  private is(text: string): boolean {
    const t = this.peek();
    return (t.kind === 'punct' || t.kind === 'name') && t.text === text;
  }

  private expect(text: string): Token {
    const t = this.next();
    if (t.text !== text || (t.kind !== 'punct' && t.kind !== 'name'))
      throw new GraphqlSyntaxError(
        `Expected '${text}', found ${t.kind === 'eof' ? 'end of document' : `'${t.text}'`}`,
        t.loc,
      );
    return t;
  }

  private name(): Token {
    const t = this.next();
    if (t.kind !== 'name')
      throw new GraphqlSyntaxError(
        `Expected a name, found ${t.kind === 'eof' ? 'end of document' : `'${t.text}'`}`,
        t.loc,
      );
    return t;
  }

  document(): Operation {
    const operation = this.operation();
    const extra = this.peek();
    if (extra.kind !== 'eof')
      throw new GraphqlSyntaxError(
        extra.text === 'fragment'
          ? 'Named fragments are not supported by the double'
          : 'The double answers documents of exactly one operation',
        extra.loc,
      );
    return operation;
  }

  private operation(): Operation {
    const start = this.peek();
    if (start.kind === 'punct' && start.text === '{') {
      return {
        operation: 'query',
        name: undefined,
        variables: [],
        directives: [],
        selections: this.selectionSet(),
        loc: start.loc,
      };
    }
    const keyword = this.name();
    if (keyword.text !== 'query' && keyword.text !== 'mutation')
      throw new GraphqlSyntaxError(
        `Unexpected '${keyword.text}': expected query or mutation`,
        keyword.loc,
      );
    const name = this.peek().kind === 'name' ? this.next().text : undefined;
    const variables = this.is('(') ? this.variableDefinitions() : [];
    const directives = this.directives();
    return {
      operation: keyword.text,
      name,
      variables,
      directives,
      selections: this.selectionSet(),
      loc: keyword.loc,
    };
  }

  private variableDefinitions(): VariableDefinition[] {
    this.expect('(');
    const defs: VariableDefinition[] = [];
    while (!this.is(')')) {
      const dollar = this.expect('$');
      const name = this.name().text;
      this.expect(':');
      const type = this.type();
      let defaultValue: Value | undefined;
      if (this.is('=')) {
        this.next();
        defaultValue = this.value(true);
      }
      defs.push({ name, type, defaultValue, loc: dollar.loc });
    }
    this.expect(')');
    return defs;
  }

  private type(): string {
    let type: string;
    if (this.is('[')) {
      this.next();
      type = `[${this.type()}]`;
      this.expect(']');
    } else type = this.name().text;
    if (this.is('!')) {
      this.next();
      type += '!';
    }
    return type;
  }

  private directives(): Directive[] {
    const directives: Directive[] = [];
    while (this.is('@')) {
      const at = this.next();
      directives.push({ name: this.name().text, loc: at.loc });
      if (this.is('(')) this.arguments(false);
    }
    return directives;
  }

  private selectionSet(): Selection[] {
    const open = this.expect('{');
    const selections: Selection[] = [];
    while (!this.is('}')) {
      if (this.peek().kind === 'eof')
        throw new GraphqlSyntaxError("Expected '}', found end of document", this.peek().loc);
      selections.push(this.selection());
    }
    this.expect('}');
    if (!selections.length)
      throw new GraphqlSyntaxError('A selection set may not be empty', open.loc);
    return selections;
  }

  private selection(): Selection {
    if (this.is('...')) {
      const dots = this.next();
      let typeCondition: string | undefined;
      if (this.is('on')) {
        this.next();
        typeCondition = this.name().text;
      } else if (this.peek().kind === 'name')
        throw new GraphqlSyntaxError('Named fragments are not supported by the double', dots.loc);
      const directives = this.directives();
      return {
        kind: 'inline',
        typeCondition,
        directives,
        selections: this.selectionSet(),
        loc: dots.loc,
      };
    }
    const first = this.name();
    let alias: string | undefined;
    let name = first.text;
    if (this.is(':')) {
      this.next();
      alias = first.text;
      name = this.name().text;
    }
    const args = this.is('(') ? this.arguments(false) : [];
    const directives = this.directives();
    const selections = this.is('{') ? this.selectionSet() : undefined;
    return { kind: 'field', alias, name, args, directives, selections, loc: first.loc };
  }

  private arguments(constant: boolean): Argument[] {
    this.expect('(');
    const args: Argument[] = [];
    while (!this.is(')')) {
      const name = this.name();
      this.expect(':');
      args.push({ name: name.text, value: this.value(constant), loc: name.loc });
    }
    this.expect(')');
    return args;
  }

  private value(constant: boolean): Value {
    const t = this.next();
    switch (t.kind) {
      case 'int':
        return { kind: 'int', value: Number(t.text) };
      case 'float':
        return { kind: 'float', value: Number(t.text) };
      case 'string':
        return { kind: 'string', value: t.text };
      case 'name':
        if (t.text === 'true' || t.text === 'false')
          return { kind: 'boolean', value: t.text === 'true' };
        if (t.text === 'null') return { kind: 'null' };
        return { kind: 'enum', value: t.text };
      case 'punct':
        if (t.text === '$' && !constant) return { kind: 'variable', name: this.name().text };
        if (t.text === '[') {
          const values: Value[] = [];
          while (!this.is(']')) values.push(this.value(constant));
          this.next();
          return { kind: 'list', values };
        }
        if (t.text === '{') {
          const fields: Record<string, Value> = {};
          while (!this.is('}')) {
            const name = this.name().text;
            this.expect(':');
            fields[name] = this.value(constant);
          }
          this.next();
          return { kind: 'object', fields };
        }
        break;
      default:
        break;
    }
    throw new GraphqlSyntaxError(
      `Unexpected ${t.kind === 'eof' ? 'end of document' : `'${t.text}'`}: expected a value`,
      t.loc,
    );
  }
}

/** Parses one operation; throws GraphqlSyntaxError with a location. */
export function parseOperation(source: string): Operation {
  return new Parser(tokenize(source)).document();
}

/** A value with its variables substituted (absent variables are undefined). */
export function valueOf(value: Value, variables: Record<string, unknown>): unknown {
  switch (value.kind) {
    case 'variable':
      return variables[value.name];
    case 'null':
      return null;
    case 'list':
      return value.values.map((v) => valueOf(v, variables));
    case 'object':
      return Object.fromEntries(
        Object.entries(value.fields).map(([k, v]) => [k, valueOf(v, variables)]),
      );
    default:
      return value.value;
  }
}
