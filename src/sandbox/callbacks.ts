// The completion callback (spec 6): a PUT of {paper_id, similarity "NN%", download_url, flag} to the registered
// URL. The switches make it come late, twice, or never, as checker-facts.md warns it may. A failed delivery
// (no answer, or not 2xx) is tried again a few times with growing waits, then given up and logged. The store
// records when a paper has nothing left to announce; one still being announced when the sandbox stopped is
// announced again after a restart.
import type { SandboxContext } from './context.js';
import type { Paper } from './records.js';

const ATTEMPTS = 3;
const FIRST_RETRY_MS = 500;
const TIMEOUT_MS = 10_000;
const DUPLICATE_GAP_MS = 50;

export interface Callbacks {
  announce(paper: Paper): void;
}

/** The target without its query, which may carry a secret. */
const shown = (url: string) => url.split('?')[0];

export function createCallbacks(ctx: SandboxContext): Callbacks {
  /** Resolves once the callback was taken (true), given up (false), or the sandbox stopped (null). */
  async function deliver(url: string, paperId: number, body: string): Promise<boolean | null> {
    for (let attempt = 1; attempt <= ATTEMPTS && !ctx.timers.signal.aborted; attempt += 1) {
      let outcome: string;
      try {
        const response = await fetch(url, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.any([ctx.timers.signal, AbortSignal.timeout(TIMEOUT_MS)]),
        });
        await response.body?.cancel();
        ctx.stats.callbacksSent += 1;
        if (response.ok) return true;
        outcome = `answered ${response.status}`;
      } catch (error) {
        outcome = error instanceof Error ? error.message : String(error);
      }
      ctx.config.logger(
        `callback for paper ${paperId} to ${shown(url)} failed (attempt ${attempt} of ${ATTEMPTS}): ${outcome}`,
      );
      if (attempt < ATTEMPTS) await ctx.timers.sleep(FIRST_RETRY_MS * 2 ** (attempt - 1));
    }
    return ctx.timers.signal.aborted ? null : false;
  }

  return {
    announce(paper) {
      const url = ctx.config.callbackUrl;
      const { callbacks: mode = 'normal', callbackDelayMs = 0 } = ctx.faults.current;
      if (!url || mode === 'drop') return ctx.store.recordAnnounced(paper);
      const findings = paper.findings;
      const body = JSON.stringify({
        paper_id: paper.id,
        similarity: `${findings?.percent ?? 0}%`,
        download_url: `${ctx.config.publicUrl()}/analysis-gateway/api/download2/${paper.id}/${findings?.reportKey ?? '--'}`,
        flag: findings ? 0 : 1,
      });
      ctx.timers.later(callbackDelayMs, () => {
        void deliver(url, paper.id, body).then((outcome) => {
          if (outcome !== null) ctx.store.recordAnnounced(paper);
          if (mode === 'duplicate') ctx.timers.later(DUPLICATE_GAP_MS, () => void deliver(url, paper.id, body));
        });
      });
    },
  };
}
