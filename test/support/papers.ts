// Papers whose similarity the sandbox's word shingles make known in advance: one of its own matches no other seed's
// (its words carry the seed), so only a copy of it scores above 0.
export function paper(seed: string): string {
  const word = (n: number) =>
    seed +
    Array.from({ length: 3 }, (_, i) => String.fromCharCode(97 + ((n * 7 + i * 13 + seed.length) % 26))).join('') +
    String.fromCharCode(97 + (n % 26));
  return Array.from(
    { length: 40 },
    (_, s) => Array.from({ length: 8 }, (_, w) => word(s * 8 + w)).join(' ') + '.',
  ).join(' ');
}

/** The first half of `copied`'s sentences, then the second half of `own`'s. */
export function halfOf(copied: string, own: string): string {
  const sentences = (text: string) => text.split('. ');
  const half = sentences(copied).length / 2;
  return [...sentences(copied).slice(0, half), ...sentences(own).slice(half)].join('. ');
}
