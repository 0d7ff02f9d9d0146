import { describe, expect, it } from '@jest/globals';
import {
  cleanText,
  codeFence,
  codeSpan,
  escapeMarkdown,
  markdownLink,
} from '../../src/report/markdown.js';
import { splitFences } from './support.js';

describe('escapeMarkdown', () => {
  it('turns HTML and Markdown syntax into character references', () => {
    const out = escapeMarkdown('</details><script>alert(1)</script> & `code` *b* _i_ [x](y) | #');
    // Once the references are removed, no special character is left.
    expect(out.replace(/&#\d+;/g, '')).not.toMatch(/[<>&`*_[\]()|#]/);
    expect(out).toContain('&#60;/details&#62;&#60;script&#62;');
  });

  it('keeps the text on one line and drops ANSI codes', () => {
    expect(escapeMarkdown('a\nb\r\nc\u001b[31m red\u001b[0m')).toBe('a b c red');
  });

  it('drops OSC hyperlinks and other escape sequences with their parameters', () => {
    expect(
      cleanText('\u001b]8;;https://x.test/a\u0007link\u001b]8;;\u0007 \u001b[1;32mok\u001bc'),
    ).toBe('link ok');
  });
});

describe('escapeMarkdown in HTML', () => {
  it('escapes the HTML specials', () => {
    expect(escapeMarkdown(`<a href="x">'&'</a>`)).toBe(
      '&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;',
    );
  });
});

describe('codeSpan', () => {
  it('uses a delimiter longer than any backtick run inside', () => {
    expect(codeSpan('a ``b`` c')).toBe('```a ``b`` c```');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
  });
  it('escapes pipes inside tables and keeps one line', () => {
    expect(codeSpan('a|b\nc', { inTable: true })).toBe('`a\\|b c`');
  });
});

describe('codeFence', () => {
  it('is longer than any backtick run, so no line closes it early', () => {
    const lines = ['```', 'x `````` y', '````'];
    const fence = codeFence(lines);
    expect(fence.startsWith('```````text\n')).toBe(true);
    const { fenced, outside } = splitFences(fence);
    expect(fenced).toEqual([lines]);
    expect(outside).toBe('');
  });
  it('is at least three backticks and splits embedded line breaks', () => {
    expect(codeFence(['a\nb'])).toBe('```text\na\nb\n```');
  });
});

describe('markdownLink', () => {
  it('links http(s) URLs and encodes characters that would end the link', () => {
    expect(markdownLink('x', 'https://h.example/a)b')).toBe('[x](https://h.example/a%29b)');
  });
  it('refuses other schemes', () => {
    expect(markdownLink('x', 'javascript:alert(1)')).toBe('`javascript:alert(1)`');
  });
});

describe('cleanText', () => {
  it('drops control characters but keeps tabs', () => {
    expect(cleanText('a\u0000b\tc\u0007')).toBe('ab\tc');
  });
});
