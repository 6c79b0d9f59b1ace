/** A small seeded PRNG (mulberry32) for reproducible property tests; no dependency. */
export interface Prng {
  readonly seed: number;
  /** [0, 1) */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** true with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T | undefined;
  /** A version-4 uuid made from the stream (reproducible ids). */
  uuid(): string;
  word(): string;
}

export function mulberry32(seed: number): Prng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const hex = (count: number) => {
    let out = '';
    for (let i = 0; i < count; i += 1) out += int(16).toString(16);
    return out;
  };
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
  return {
    seed,
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => (items.length === 0 ? undefined : items[int(items.length)]),
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[int(4)]}${hex(3)}-${hex(12)}`,
    word: () => `${words[int(words.length)]}${int(100)}`,
  };
}
