import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../src/editprediction/metrics/tokenize.js';

describe('tokenize', () => {
  it('splits code into words, whitespace and punctuation', () => {
    expect(tokenize('hello world')).toEqual(['hello', ' ', 'world']);
    expect(tokenize('foo_bar123 + baz')).toEqual(['foo', '_', 'bar123', ' ', '+', ' ', 'baz']);
    expect(tokenize('print("hello")')).toEqual(['print', '(', '"', 'hello', '"', ')']);
  });

  it('splits identifiers at camel-case humps and underscore runs', () => {
    expect(tokenize('camelCase PascalCase snake_case')).toEqual(['camel', 'Case', ' ', 'Pascal', 'Case', ' ', 'snake', '_', 'case']);
    expect(tokenize('myHTTPServer __private_value foo__bar')).toEqual(['my', 'HTTP', 'Server', ' ', '__', 'private', '_', 'value', ' ', 'foo', '__', 'bar']);
    expect(tokenize('XMLHttpRequest Version2Update')).toEqual(['XML', 'Http', 'Request', ' ', 'Version2', 'Update']);
  });

  it('keeps multi-character operators and newline runs together', () => {
    expect(tokenize('a::b -> c != d ..= e')).toEqual(['a', '::', 'b', ' ', '->', ' ', 'c', ' ', '!=', ' ', 'd', ' ', '..=', ' ', 'e']);
    expect(tokenize('foo?.bar ?? baz')).toEqual(['foo', '?.', 'bar', ' ', '??', ' ', 'baz']);
    expect(tokenize('  \n   foo')).toEqual(['  ', '\n', '   ', 'foo']);
    expect(tokenize('\r\n\nfoo')).toEqual(['\r\n\n', 'foo']);
  });

  it('treats non-ASCII letters as identifier characters', () => {
    expect(tokenize('naïveÉtat = 1')).toEqual(['naïve', 'État', ' ', '=', ' ', '1']);
  });
});
