// The sandbox's analysis. Similarity is computed, not invented: the paper's 5-word shingles are looked up in the
// earlier papers of the same account, and the share of its words covered by a match is its percentage (so the
// same text twice scores 100, unrelated texts about 0). The folder's exclusions (quotes, references, phrases,
// small sources) apply to `percent`, not to `og_percent`. AI and grammar scores are SIMULATED: derived from the
// text's statistics and a hash, the same for the same text, and labelled as such in the reports.
import { createHash } from 'node:crypto';
import type { FolderSettings } from './folder-settings.js';

const SHINGLE_WORDS = 5;
const PASSAGES_PER_SOURCE = 5;
const WORDS_PER_PASSAGE = 40;

export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** The shingle starting at each word (one shingle of all words for a paper shorter than a shingle). */
function shingleList(words: string[]): string[] {
  if (words.length === 0) return [];
  if (words.length < SHINGLE_WORDS) return [words.join(' ')];
  return Array.from({ length: words.length - SHINGLE_WORDS + 1 }, (_, i) =>
    words.slice(i, i + SHINGLE_WORDS).join(' '),
  );
}

export const shinglesOf = (words: string[]): Set<string> => new Set(shingleList(words));

export interface Source {
  paperId: number;
  title: string;
  shingles: Set<string>;
}

export interface SourceMatch {
  paperId: number;
  title: string;
  /** Share of the paper's words this source covers. */
  percent: number;
  words: number;
  passages: string[];
}

export interface Similarity {
  percent: number;
  matches: SourceMatch[];
}

/** Coverage of `words` by each source; sources covering fewer than `minWords` words are left out. */
export function similarity(words: string[], sources: Source[], minWords = 0): Similarity {
  if (words.length === 0) return { percent: 0, matches: [] };
  const shingles = shingleList(words);
  const span = Math.min(SHINGLE_WORDS, words.length);
  const coveredByAny = new Uint8Array(words.length);
  const matches: SourceMatch[] = [];
  for (const source of sources) {
    const covered = new Uint8Array(words.length);
    shingles.forEach((shingle, i) => {
      if (source.shingles.has(shingle)) covered.fill(1, i, i + span);
    });
    const count = covered.reduce((sum, c) => sum + c, 0);
    if (count === 0 || count < minWords) continue;
    covered.forEach((c, i) => c && (coveredByAny[i] = 1));
    matches.push({
      paperId: source.paperId,
      title: source.title,
      percent: Math.round((count / words.length) * 100),
      words: count,
      passages: passages(words, covered),
    });
  }
  const total = coveredByAny.reduce((sum, c) => sum + c, 0);
  return { percent: Math.round((total / words.length) * 100), matches: matches.sort((a, b) => b.words - a.words) };
}

/** The longest runs of covered words, as the report quotes them. */
function passages(words: string[], covered: Uint8Array): string[] {
  const runs: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i <= words.length; i += 1) {
    if (i < words.length && covered[i]) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      runs.push([start, i]);
      start = -1;
    }
  }
  return runs
    .sort((a, b) => b[1] - b[0] - (a[1] - a[0]))
    .slice(0, PASSAGES_PER_SOURCE)
    .map(
      ([from, to]) =>
        words.slice(from, Math.min(to, from + WORDS_PER_PASSAGE)).join(' ') +
        (to - from > WORDS_PER_PASSAGE ? ' …' : ''),
    );
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text the folder's exclusions leave to be compared. */
export function afterExclusions(text: string, settings: FolderSettings): string {
  let kept = text;
  if (settings.excludeReferences) {
    const heading = /^[ \t]*(references|bibliography|works cited|literature cited|sources)[ \t]*:?[ \t]*$/im.exec(kept);
    if (heading) kept = kept.slice(0, heading.index);
  }
  if (settings.excludeQuotes) kept = kept.replace(/"[^"]*"|“[^”]*”|«[^»]*»/g, ' ');
  if (settings.excludePhrases)
    for (const phrase of settings.phrases) kept = kept.replace(new RegExp(escape(phrase), 'gi'), ' ');
  return kept;
}

/** Compares with the databases the folder names; of the sandbox's, only the account's own papers exist. */
export const comparesWithOwnPapers = (settings: FolderSettings): boolean =>
  settings.studentPapers || settings.institutionRepository;

function unit(text: string, salt: string): number {
  return createHash('sha256').update(salt).update(text).digest().readUInt32BE(0) / 0xffffffff;
}

export function sentencesOf(text: string): number {
  return text.split(/[.!?]+(?:\s|$)/).filter((s) => /[\p{L}\p{N}]/u.test(s)).length;
}

/** SIMULATED: repetitive vocabulary and uniform sentence lengths push it up; a hash of the text adds the rest. */
export function simulatedAiScore(text: string): number {
  const words = wordsOf(text);
  if (words.length === 0) return 0;
  const variety = new Set(words).size / words.length;
  const lengths = text
    .split(/[.!?]+/)
    .map((s) => wordsOf(s).length)
    .filter((n) => n > 0);
  const mean = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  const spread =
    Math.sqrt(lengths.reduce((a, n) => a + (n - mean) ** 2, 0) / Math.max(1, lengths.length)) / Math.max(1, mean);
  return Math.max(
    0,
    Math.min(100, Math.round((1 - variety) * 40 + Math.max(0, 1 - spread) * 30 + unit(text, 'ai') * 30)),
  );
}

/** SIMULATED: sentences that start with a capital and are of a readable length score higher. */
export function simulatedGrammarScore(text: string): number {
  const sentences = text.split(/[.!?]+/).filter((s) => /[\p{L}]/u.test(s));
  if (sentences.length === 0) return 0;
  const capitalised = sentences.filter((s) => /^\s*\p{Lu}/u.test(s)).length / sentences.length;
  const readable = sentences.filter((s) => wordsOf(s).length <= 40).length / sentences.length;
  return Math.round(50 + capitalised * 25 + readable * 15 + unit(text, 'grammar') * 10);
}
