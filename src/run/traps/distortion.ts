import type { DistortionStyle } from '../../model/index.js';
import { seededRandom } from '../../statistics/index.js';

const LEET: Record<string, string> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };
const UNLEET = Object.fromEntries(Object.entries(LEET).map(([letter, digit]) => [digit, letter]));

/** Latin letters and the Cyrillic letters that look like them (transliteration by look-alike). */
const HOMOGLYPHS: Record<string, string> = {
  a: 'а',
  c: 'с',
  e: 'е',
  o: 'о',
  p: 'р',
  x: 'х',
  y: 'у',
  A: 'А',
  B: 'В',
  C: 'С',
  E: 'Е',
  H: 'Н',
  K: 'К',
  M: 'М',
  O: 'О',
  P: 'Р',
  T: 'Т',
  X: 'Х',
};
const UNHOMOGLYPH = Object.fromEntries(Object.entries(HOMOGLYPHS).map(([latin, cyrillic]) => [cyrillic, latin]));

/** Informal spellings, each standing for one word only, so the inverse is a lookup. */
const DIALECT: Record<string, string> = {
  you: 'ya',
  your: 'yer',
  because: 'cos',
  them: 'em',
  what: 'wot',
  going: 'goin',
  nothing: 'nuthin',
  please: 'pls',
  thanks: 'thx',
  and: 'n',
  are: 'r',
  for: '4',
};
const UNDIALECT = Object.fromEntries(Object.entries(DIALECT).map(([word, spelling]) => [spelling, word]));

export interface DistortionOptions {
  style: DistortionStyle;
  /** Share of the distortable places changed, in [0, 1]. */
  strength: number;
  seed: number;
}

const tokens = (text: string) => text.split(/(\s+)/);
const isSpace = (token: string) => /^\s*$/.test(token);
const bare = (word: string) => /^([^\p{L}\p{N}]*)([\p{L}\p{N}'’-]*?)([^\p{L}\p{N}]*)$/u.exec(word);

/** One interior edit of a word of four or more letters: swap two neighbours, drop one, or double one. */
function typo(word: string, random: () => number): string {
  // Positions 1 … length − 3, so that a swap with the next letter never moves the last one.
  const at = 1 + Math.floor(random() * (word.length - 3));
  const edit = Math.floor(random() * 3);
  if (edit === 0) return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
  if (edit === 1) return word.slice(0, at) + word.slice(at + 1);
  return word.slice(0, at) + word[at] + word.slice(at);
}

/**
 * Distort a request reproducibly: the same text, style, strength and seed give the same result. Typos edit words of
 * four or more letters once each (first and last letter kept), leetspeak swaps letters for digits, transliteration
 * swaps Latin letters for look-alike Cyrillic ones, dialect respells common words; `strength` is the share of the
 * eligible places changed, each chosen by the seeded random source.
 */
export function distort(text: string, options: DistortionOptions): string {
  const { style, strength, seed } = options;
  if (!(strength >= 0 && strength <= 1)) throw new RangeError(`distort: strength must be in [0, 1], got ${strength}`);
  const random = seededRandom(seed);
  const pick = () => random() < strength;
  if (style === 'leetspeak')
    return [...text]
      .map((ch) => (LEET[ch.toLowerCase()] !== undefined && pick() ? LEET[ch.toLowerCase()] : ch))
      .join('');
  if (style === 'transliteration')
    return [...text].map((ch) => (HOMOGLYPHS[ch] !== undefined && pick() ? HOMOGLYPHS[ch] : ch)).join('');
  return tokens(text)
    .map((token) => {
      const parts = bare(token);
      if (isSpace(token) || !parts) return token;
      const [, before = '', word = '', after = ''] = parts;
      if (style === 'typos')
        return word.length >= 4 && /^\p{L}+$/u.test(word) && pick() ? before + typo(word, random) + after : token;
      const spelling = DIALECT[word.toLowerCase()];
      return spelling !== undefined && pick() ? before + spelling + after : token;
    })
    .join('');
}

/** True when a and b differ by at most one insertion, deletion, substitution or swap of neighbours. */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  if (a.length === b.length)
    return (
      a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2))
    );
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** The style's documented inverse applied to one distorted word (typos have none: they are matched within one edit). */
function undo(style: DistortionStyle, word: string): string {
  if (style === 'leetspeak') return [...word].map((ch) => UNLEET[ch] ?? ch).join('');
  if (style === 'transliteration') return [...word].map((ch) => UNHOMOGLYPH[ch] ?? ch).join('');
  if (style === 'dialect') {
    const parts = bare(word);
    if (!parts) return word;
    const [, before = '', core = '', after = ''] = parts;
    return before + (UNDIALECT[core.toLowerCase()] ?? core) + after;
  }
  return word;
}

/**
 * How much of the clean request the style's inverse recovers from the distorted one: the share of its words that come
 * back (case aside; for typos, within one edit with the first letter kept). A distortion is recoverable when every
 * word comes back. A clean word that already looks distorted (a digit in leetspeak, "4" in dialect) may not come
 * back: such requests are not recoverable at any strength that touches them.
 */
export function recoverability(clean: string, distorted: string, style: DistortionStyle): number {
  const words = tokens(clean).filter((t) => !isSpace(t));
  const seen = tokens(distorted).filter((t) => !isSpace(t));
  if (words.length === 0) return 1;
  if (words.length !== seen.length) return 0;
  const back = words.filter((word, i) => {
    const got = undo(style, seen[i] ?? '').toLowerCase();
    const want = word.toLowerCase();
    return style === 'typos' ? got[0] === want[0] && withinOneEdit(got, want) : got === want;
  });
  return back.length / words.length;
}
