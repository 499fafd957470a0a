/** The second the last text was made for, and that text up to its milliseconds ("2026-12-01T04:20:39."). */
let second = Number.NaN;
let secondText = '';

/** Largest distance from 1970 a Date can stand at, in milliseconds (ECMAScript TimeClip). */
const MAX_TIME = 8.64e15;

/**
 * `new Date(ms).toISOString()`, the same text, with the part up to the seconds kept from the call before: every attempt
 * stamps its start, and making a Date and formatting it cost a few microseconds of an attempt's few dozen, where the
 * attempts of a quick trial start within the same second. A time a Date cannot hold throws as toISOString does.
 */
export function isoTime(ms: number): string {
  if (!(Math.abs(ms) <= MAX_TIME)) return new Date(ms).toISOString();
  // As a Date takes it: the fraction of a millisecond dropped (toward zero).
  const whole = Math.trunc(ms);
  const at = Math.floor(whole / 1000);
  if (at !== second) {
    secondText = new Date(at * 1000).toISOString().slice(0, -4);
    second = at;
  }
  const milli = whole - at * 1000;
  return `${secondText}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
