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

/** How an essay is written: its sentences, how many, and what comes before them. */
export interface EssayPattern {
  sentence?: (i: number, topic: string) => string;
  sentences?: number;
  heading?: string;
}

const arguing = (i: number, topic: string) =>
  `Sentence ${i} about ${topic} explores a different angle of the argument with evidence number ${i * 7}.`;

/**
 * An essay on `topic`, long enough for the sandbox to score: the topic, then sixty sentences of one pattern. Essays on
 * two topics share the pattern's words, so the sandbox finds them alike in part, as two students' essays on one
 * assignment; a file that wants other scores writes its essays to another pattern.
 */
export function essay(topic: string, { sentence = arguing, sentences = 60, heading = `${topic} ` }: EssayPattern = {}) {
  return heading + Array.from({ length: sentences }, (_, i) => sentence(i, topic)).join(' ');
}
