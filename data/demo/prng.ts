/**
 * Deterministic pseudo-random numbers for the demo builder: every value derives from a
 * string seed (FNV-1a 32-bit hash feeding mulberry32), so the same curated input always
 * yields the same catalogue and no build ever reads Math.random or the clock.
 */

/** FNV-1a 32-bit hash of a string. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Mulberry32 generator; a class (not closures) because it is created per code claim. */
export class Rng {
  private state: number;

  constructor(seed: string) {
    this.state = hash32(seed) || 0x9e3779b9;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A string of `length` decimal digits (leading zeros allowed). */
  digits(length: number): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += String(this.int(0, 9));
    return out;
  }
}

/** A generator seeded from a string. */
export function rng(seed: string): Rng {
  return new Rng(seed);
}
