import { describe, expect, test } from 'vitest';
import {
  escapeHtml,
  mapStrings,
  markdownInline,
  markdownLine,
  markdownText,
  neutraliseText,
} from '../../../src/report/safe-text.js';

describe('safe text', () => {
  test('controls and bidi marks become visible stand-ins; tab, newline and ordinary text stay', () => {
    expect(neutraliseText('a\u001b[2Jb')).toBe('a␛[2Jb');
    expect(neutraliseText('\u001b]8;;https://x\u0007go\u001b]8;;\u0007')).toBe('␛]8;;https://x␇go␛]8;;␇');
    expect(neutraliseText('\u001b]52;c;aGk=\u0007')).toBe('␛]52;c;aGk=␇');
    expect(neutraliseText('\u009b2J \u009d0;t\u009c')).toBe('⟨U+009B⟩2J ⟨U+009D⟩0;t⟨U+009C⟩');
    expect(neutraliseText('\u202Eexe.txt\u202C \u2066x\u2069 \u200F')).toBe(
      '⟨U+202E⟩exe.txt⟨U+202C⟩ ⟨U+2066⟩x⟨U+2069⟩ ⟨U+200F⟩',
    );
    expect(neutraliseText('a\rb\u007f')).toBe('a␍b␡');
    expect(neutraliseText('line 1\n\tline 2 — τ ≥ 0.8 ✓ 日本')).toBe('line 1\n\tline 2 — τ ≥ 0.8 ✓ 日本');
  });

  test('markdownLine, one scan first, changes exactly what markdownText then markdownInline change', () => {
    // Every character either transform acts on, alone, between letters and between spaces, and seeded random texts
    // over them and a few ordinary characters: the scan must not let any of them through unchanged.
    const special = [
      ...Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c)),
      ...Array.from({ length: 0x21 }, (_, c) => String.fromCharCode(0x7f + c)),
      '\u061C',
      '\u200E',
      '\u200F',
      '\u202A',
      '\u202E',
      '\u2066',
      '\u2069',
      '&',
      '<',
      '>',
      '"',
      '\\',
      '`',
      '*',
      '~',
      '[',
      ']',
      '_',
    ];
    const texts = special.flatMap((c) => [c, `a${c}b`, ` ${c} `, `${c}x`, `x${c}`]);
    let seed = 12345;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const alphabet = [...special, 'a', 'Z', '9', ' ', 'é', '日', '|', '#'];
    for (let i = 0; i < 2000; i += 1)
      texts.push(Array.from({ length: 1 + (next() % 12) }, () => alphabet[next() % alphabet.length]).join(''));
    for (const text of texts) expect(markdownLine(text), JSON.stringify(text)).toBe(markdownInline(markdownText(text)));
    expect(markdownLine('a.test.mjs > answers 0')).toBe('a.test.mjs &gt; answers 0');
    expect(markdownLine('snake_case stays')).toBe('snake_case stays');
    const plain = 'PASS: 1/1 passed, bounds [0.050, 1.000]'.replace(/[[\]]/g, '');
    expect(markdownLine(plain)).toBe(plain);
  });

  test('Markdown text has HTML escaped', () => {
    expect(markdownText('<script>alert("x")</script> & \u001b[2J')).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; ␛[2J',
    );
  });

  test('mapStrings reaches every string and key, and returns untouched parts as they are', () => {
    const clean = { a: ['x', 1, null], b: { c: 'y' } };
    expect(mapStrings(clean)).toBe(clean);
    const dirty = { a: ['x\u001b'], b: { 'k\u202e': 'y' }, clean: { z: 'z' } };
    const mapped = mapStrings(dirty);
    expect(mapped).toEqual({ a: ['x␛'], b: { 'k⟨U+202E⟩': 'y' }, clean: { z: 'z' } });
    expect(mapped.clean).toBe(dirty.clean);
  });

  test('escapeHtml escapes &, <, > and " wherever they are, and leaves other text as it is', () => {
    expect(escapeHtml('a & b <i>"x"</i> > c')).toBe('a &amp; b &lt;i&gt;&quot;x&quot;&lt;/i&gt; &gt; c');
    expect(escapeHtml('&&')).toBe('&amp;&amp;');
    expect(escapeHtml("plain text, 'quoted' — τ ≥ 0.8")).toBe("plain text, 'quoted' — τ ≥ 0.8");
    expect(escapeHtml('')).toBe('');
  });

  test('mapStrings keeps the parts before and after the first change, in their order', () => {
    const value = { first: ['a', { b: 'b' }, 'c\u001b', 'd'], second: 'e', 'third\u0007': 'f', fourth: 'g' };
    const mapped = mapStrings(value);
    expect(mapped).toEqual({ first: ['a', { b: 'b' }, 'c␛', 'd'], second: 'e', 'third␇': 'f', fourth: 'g' });
    expect(Object.keys(mapped)).toEqual(['first', 'second', 'third␇', 'fourth']);
    expect(mapped.first[1]).toBe(value.first[1]);
    expect(mapStrings(['x', 'y', 'z\u001b'])).toEqual(['x', 'y', 'z␛']);
  });

  test('a `__proto__` member stays an own member of the mapped copy', () => {
    const value = JSON.parse('{"a":"x\\u0007","__proto__":{"shown":"y\\u0007"}}');
    const mapped = mapStrings(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(mapped)).toBe(Object.prototype);
    expect(mapped.shown).toBeUndefined();
    expect(JSON.stringify(mapped)).toBe('{"a":"x␇","__proto__":{"shown":"y␇"}}');
  });
});
