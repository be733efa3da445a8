/** A small seeded PRNG (mulberry32), so datasets, uids and injected faults repeat run after run. */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomHex(random: Random, length: number): string {
  let out = '';
  while (out.length < length) out += Math.floor(random() * 0x100000000).toString(16).padStart(8, '0');
  return out.slice(0, length);
}
