// Policy rules that pass every shape check of a rule (under 200 nodes, no comprehension inside another, no
// `matches`) yet, evaluated without a budget, stall or kill the process: the findings of issue 24, item 1.
const run = (character: string, length: number) => character.repeat(length);

/**
 * Stalls: about ten seconds per host without a budget. Each of ~800 steps of an `exists` builds a string of a
 * million characters by `split` and `join` and scans it.
 */
export const STALLING_RULE =
  `'${run('a', 100)}'.split('').join('1234567').split('').exists(c, ` +
  `('${run('a', 100)}'.split('').join('${run('a', 100)}').split('').join('${run('a', 100)}') + c).endsWith('zz'))`;

/**
 * Exhausts the heap: `split('')` and `join` of string literals build a string of about 200 million characters,
 * split into as many one-character strings (a V8 heap out-of-memory, whatever the heap size).
 */
export const HEAP_RULE = (() => {
  const square = `'${run('a', 120)}'.split('').join('${run('a', 120)}')`;
  return `${square}.split('').join(${square}).split('').map(c, c + c).size() > 0`;
})();

/**
 * Builds nothing beyond a list of 100,000 one-character strings (within every size budget), then spends about a
 * hundred and sixty steps on each: most of a second of work (without a budget) that only the clock stops.
 */
export const SLOW_RULE =
  `'${run('a', 100)}'.split('').join('${run('b', 100)}').split('').join('${run('c', 9)}').split('')` +
  `.exists(x, ${Array(55).fill('size(x)').join(' + ')} > 1000)`;
