import { jsonNestingExceeds } from './json-nesting';

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
