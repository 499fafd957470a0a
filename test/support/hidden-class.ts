import v8 from 'node:v8';

// V8's own test natives say whether two objects share a hidden class: an object given one of its own (a spread
// followed by a new member does that on Node 20) costs hundreds of bytes and a microsecond or two more to make, for
// every arm, attempt or request that makes one.
v8.setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
// An object whose hidden class V8 has since generalised (a member once a number, now null) keeps the old one until it
// is next touched: moved first, two objects made alike compare alike.
const migrate = new Function('a', '%TryMigrateInstance(a)') as (a: object) => void;

/**
 * How many hidden classes `objects` have between them. Objects made alike share one, or two where the first few were
 * made before V8 settled on a fast path (a spread copy); one each, where each was given its own.
 */
export function hiddenClassCount(objects: readonly object[]): number {
  const seen: object[] = [];
  for (const object of objects) {
    migrate(object);
    if (!seen.some((other) => haveSameMap(other, object))) seen.push(object);
  }
  return seen.length;
}
