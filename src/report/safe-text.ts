import { setOwnMember } from '../model/index.js';
/**
 * Subject-derived text (trial and arm names, replies, errors, file names) reaches terminals, Markdown viewers and
 * browsers through riddle's renderers. Control characters would let it clear the screen, retitle the window, plant
 * OSC 8 links or write the clipboard (OSC 52); bidirectional overrides would make text read other than it is. Every
 * renderer shows such characters as visible stand-ins instead.
 */

/** C0 controls but tab and newline, DEL, C1 controls (8-bit CSI/OSC among them), and bidi marks, embeddings,
 * overrides and isolates. */
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
const HAS_UNSAFE = new RegExp(UNSAFE.source);

function standIn(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  // C0 controls have their own visible pictures (␛ for ESC); the rest are named by code point.
  if (code < 0x20) return String.fromCodePoint(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** The text with every control character (but tab and newline) and bidi control shown as a visible stand-in. */
export function neutraliseText(text: string): string {
  return HAS_UNSAFE.test(text) ? text.replace(UNSAFE, standIn) : text;
}

const HTML_SPECIAL = /[&<>"]/;

/** Escape the characters HTML gives meaning to, for text placed in HTML or Markdown. */
export function escapeHtml(text: string): string {
  // Most text (keys, ids, verdicts) has none of them: one scan instead of four replacements.
  if (!HTML_SPECIAL.test(text)) return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Text as Markdown may show it: neutralised, and with HTML escaped so a viewer renders it as text. */
export function markdownText(text: string): string {
  return escapeHtml(neutraliseText(text));
}

/**
 * Markdown's inline markup characters: the escape itself, code, emphasis, strikethrough, links and images. `_` only
 * where it could open or close emphasis, so snake_case names stay as written.
 */
const MARKDOWN_MARKUP = /[\\`*~[\]]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
/** Every character markdownInline may change: a line break, or one of the markup characters (`_` wherever it is). */
const MAY_NEED_INLINE = /[\n\\`*~[\]_]/;

/**
 * Text placed within one line of Markdown (a heading, list item, `Why:` line or table cell): line breaks become
 * spaces, so it cannot begin a block of its own (heading, list, quote, table), and markup characters are escaped, so
 * it cannot make links, images, code or emphasis. Controls and HTML are left to `markdownText`; `|` to the table.
 */
export function markdownInline(text: string): string {
  // Most text has none of them: one scan instead of two replacements.
  if (!MAY_NEED_INLINE.test(text)) return text;
  return text.replace(/\n/g, ' ').replace(MARKDOWN_MARKUP, '\\$&');
}

/** Every character `markdownLine` may change: what neutraliseText, escapeHtml or markdownInline would. */
const MAY_NEED_LINE = new RegExp(`${UNSAFE.source}|[&<>"]|${MAY_NEED_INLINE.source}`);

/**
 * `markdownInline(markdownText(text))` with one scan for text that needs none of it, as nearly every string of an
 * Outcome does: the Markdown summary applies it to every string of every Outcome of a run, and three scans each were
 * most of the summary's cost (0.07 ms a one-attempt trial).
 */
export function markdownLine(text: string): string {
  return MAY_NEED_LINE.test(text) ? markdownInline(markdownText(text)) : text;
}

/**
 * Plain data (an Outcome) with `transform` applied to every string, keys included. Parts with nothing to change
 * are returned as they are, so the common case costs one scan and no copy.
 */
export function mapStrings<T>(value: T, transform: (text: string) => string = neutraliseText): T {
  return mapDeep(value, transform) as T;
}

function mapDeep(value: unknown, transform: (text: string) => string): unknown {
  if (typeof value === 'string') return transform(value);
  // A copy is begun only at the first part that changes: until then the parts are the value's own.
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      const mapped = mapDeep(item, transform);
      if (out === null && mapped !== item) out = value.slice(0, i);
      out?.push(mapped);
    }
    return out ?? value;
  }
  if (value !== null && typeof value === 'object') {
    let out: Record<string, unknown> | null = null;
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i] as string;
      const member = (value as Record<string, unknown>)[key];
      const mappedKey = transform(key);
      const mapped = mapDeep(member, transform);
      if (out === null && (mappedKey !== key || mapped !== member)) {
        out = {};
        for (const earlier of keys.slice(0, i)) setOwnMember(out, earlier, (value as Record<string, unknown>)[earlier]);
      }
      if (out !== null) setOwnMember(out, mappedKey, mapped);
    }
    return out ?? value;
  }
  return value;
}
