// The sandbox's analysis: similarity from word shingles against the account's earlier papers (a copied paper
// scores high, an unrelated one near zero), and AI and grammar scores derived from the text deterministically.
// The AI and grammar numbers are simulated, and the reports say so.
import { createHash } from 'node:crypto';

const SHINGLE = 5;

export function words(text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}\s]/gu, ' ').split(/\s+/).filter(Boolean);
}

export function shingles(list: string[]): Set<string> {
  const set = new Set<string>();
  for (let i = 0; i + SHINGLE <= list.length; i += 1) set.add(list.slice(i, i + SHINGLE).join(' '));
  if (set.size === 0 && list.length > 0) set.add(list.join(' '));
  return set;
}

export interface Match {
  paperId: number;
  title: string;
  percent: number;
  passages: string[];
}

/** The share of this paper's shingles found in earlier papers, and which papers they come from. */
export function compare(text: string, earlier: Array<{ paperId: number; title: string; shingles: Set<string> }>): { percent: number; matches: Match[] } {
  const mine = shingles(words(text));
  if (mine.size === 0) return { percent: 0, matches: [] };
  const matched = new Set<string>();
  const matches: Match[] = [];
  for (const other of earlier) {
    const common = [...mine].filter((s) => other.shingles.has(s));
    if (common.length === 0) continue;
    common.forEach((s) => matched.add(s));
    matches.push({ paperId: other.paperId, title: other.title, percent: Math.round((common.length / mine.size) * 100), passages: common.slice(0, 5) });
  }
  return { percent: Math.round((matched.size / mine.size) * 100), matches: matches.sort((a, b) => b.percent - a.percent) };
}

function unit(text: string, salt: string): number {
  return createHash('sha256').update(salt).update(text).digest().readUInt32BE(0) / 0xffffffff;
}

/** Simulated: a number from the text's own statistics and a hash, the same every time for the same text. */
export function simulatedAiScore(text: string): number {
  const list = words(text);
  const variety = list.length === 0 ? 0 : new Set(list).size / list.length;
  return Math.max(0, Math.min(100, Math.round((1 - variety) * 60 + unit(text, 'ai') * 40)));
}

export function simulatedGrammarScore(text: string): number {
  const sentences = text.split(/[.!?]+/).filter((s) => s.trim().length > 0);
  const capitalised = sentences.filter((s) => /^\s*[A-Z]/.test(s)).length;
  return Math.round(60 + (sentences.length === 0 ? 0 : (capitalised / sentences.length) * 30) + unit(text, 'grammar') * 10);
}
