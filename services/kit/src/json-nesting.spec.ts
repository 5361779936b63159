import { jsonHasNul, jsonNestingExceeds } from './json-nesting';

describe('jsonNestingExceeds', () => {
  const bytes = (text: string) => Buffer.from(text);

  it('counts arrays and objects, at the limit and one past it', () => {
    expect(jsonNestingExceeds(bytes('[[[1]]]'), 3)).toBe(false);
    expect(jsonNestingExceeds(bytes('[[[[1]]]]'), 3)).toBe(true);
    expect(jsonNestingExceeds(bytes('{"a":{"b":[1,{"c":2}]}}'), 4)).toBe(false);
    expect(jsonNestingExceeds(bytes('{"a":{"b":[1,{"c":{"d":1}}]}}'), 4)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestingExceeds(bytes('{"a":"[[[[[[[[\\"[[[["}'), 2)).toBe(false);
    expect(jsonNestingExceeds(bytes('["\\\\",[[1]]]'), 2)).toBe(true);
  });

  it('depth goes back down between siblings', () => {
    expect(jsonNestingExceeds(bytes('[[1],[2],[3],[4]]'), 2)).toBe(false);
  });

  it('scans 100,000 levels in one linear pass', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(jsonNestingExceeds(bytes(deep))).toBe(true);
    expect(jsonNestingExceeds(bytes(`[${'1,'.repeat(200_000)}1]`))).toBe(false);
  });
});

describe('jsonHasNul', () => {
  const bytes = (text: string) => Buffer.from(text);

  it('finds the NUL escape in any string, keys included, in either case of the u', () => {
    expect(jsonHasNul(bytes(JSON.stringify({ name: 'a\u0000b' })))).toBe(true);
    expect(jsonHasNul(bytes('{"a\\u0000":1}'))).toBe(true);
    expect(jsonHasNul(bytes('["x","\\U0000"]'))).toBe(true);
    // Every string JSON.parse would give a NUL, found; none other.
    for (const text of ['"\\u0000"', '"\\\\\\u0000"', '["ok","\\"\\u0000"]'])
      expect([
        jsonHasNul(bytes(text)),
        JSON.stringify(JSON.parse(text)).includes('\\u0000'),
      ]).toEqual([true, true]);
  });

  it('leaves other escapes and an escaped backslash before "u0000" alone', () => {
    expect(jsonHasNul(bytes('{"a":"\\\\u0000"}'))).toBe(false); // the text \u0000, six characters
    expect(jsonHasNul(bytes('{"a":"\\u0001\\u00001"}'))).toBe(true);
    expect(jsonHasNul(bytes('{"a":"\\u0010","b":"u0000"}'))).toBe(false);
    expect(jsonHasNul(bytes('{"u0000":"\\n\\t"}'))).toBe(false);
    expect(JSON.parse('{"a":"\\\\u0000"}').a).toBe('\\u0000');
  });
});
