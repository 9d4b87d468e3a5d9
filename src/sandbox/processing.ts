// What happens after an upload (spec 3): after the configured delay the paper is read and compared, its results
// and report key are set, its file is removed, and the completion callback goes out (flag 1 for an unreadable
// paper). Papers are analysed one at a time in upload order, so a paper is always compared with every earlier one.
// After a restart (a sandbox with a journal), the papers still waiting are scheduled again, due when they were.
import { randomInt } from 'node:crypto';
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import {
  afterExclusions,
  comparesWithOwnPapers,
  sentencesOf,
  similarity,
  simulatedAiScore,
  simulatedGrammarScore,
  wordsOf,
} from './analysis.js';
import type { Callbacks } from './callbacks.js';
import type { SandboxContext } from './context.js';
import type { Findings, Paper } from './records.js';
import { extractText } from './text.js';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const WORDS_PER_PAGE = 300;

/** A d_key as the service issues them: 20 upper-case letters and digits (checker-facts.md). */
export const reportKey = () => Array.from({ length: 20 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join('');

export function createProcessing(
  ctx: SandboxContext,
  callbacks: Callbacks,
): { schedule(paper: Paper, path: string, delayMs?: number): void } {
  let queue: Promise<void> = Promise.resolve();

  async function findingsFor(paper: Paper, path: string): Promise<{ findings: Findings; words: string[] } | null> {
    const extracted = await extractText(path, paper.fileType);
    if (!extracted) return null;
    const folder = ctx.store.folders.get(paper.folderId);
    if (!folder) return null;
    const words = wordsOf(extracted.text);
    const sources = comparesWithOwnPapers(folder.settings)
      ? [...ctx.store.papers.values()]
          .filter((p) => p.ownerId === paper.ownerId && p.id < paper.id && p.state === 'done')
          .map((p) => ({ paperId: p.id, title: p.title, shingles: p.shingles }))
      : [];
    const original = similarity(words, sources);
    const s = folder.settings;
    const excluded = similarity(
      wordsOf(afterExclusions(extracted.text, s)),
      sources,
      s.excludeSmallSources ? s.excludeThreshold : 0,
    );
    const findings = {
      percent: excluded.percent,
      ogPercent: original.percent,
      ai: simulatedAiScore(extracted.text),
      grammar: paper.grammarCheck ? simulatedGrammarScore(extracted.text) : null,
      reportKey: reportKey(),
      chars: extracted.text.length,
      words: words.length,
      sentences: sentencesOf(extracted.text),
      pages: extracted.pages ?? Math.max(1, Math.ceil(words.length / WORDS_PER_PAGE)),
      matches: excluded.matches,
    };
    return { findings, words };
  }

  async function analyse(paper: Paper, path: string): Promise<void> {
    const removeSpentUpload = async () => {
      if (paper.upload === null || !ctx.store.papers.has(paper.id)) await rm(path, { force: true });
    };
    try {
      if (!ctx.store.papers.has(paper.id)) return; // deleted while it waited: no result, no callback
      const analysed = await findingsFor(paper, path);
      if (!ctx.store.papers.has(paper.id) || ctx.timers.signal.aborted) return; // stopped meanwhile: analysed again after a restart
      const findings = analysed?.findings ?? null;
      // Recorded, the spent upload removed and the result announced in one synchronous step: nobody who reads the
      // result finds its file, and the callback goes out under the faults in force when the result became readable
      // (a test that drops callbacks until it reads the result must not see this one slip through).
      ctx.store.recordAnalysis(paper, findings, analysed?.words ?? null);
      rmSync(path, { force: true });
      ctx.config.logger(
        `paper ${paper.id} analysed: ${findings ? `similarity ${findings.percent}%` : 'unreadable (doc:error)'}`,
        'info',
      );
      callbacks.announce(paper);
    } finally {
      await removeSpentUpload();
    }
  }

  return {
    schedule(paper, path, delayMs = ctx.config.delayMs) {
      ctx.timers.later(delayMs, () => {
        queue = queue
          .then(() => analyse(paper, path))
          .catch((error: unknown) =>
            ctx.config.logger(
              `analysis of paper ${paper.id} failed: ${error instanceof Error ? error.message : String(error)}`,
            ),
          );
      });
    },
  };
}
