// Letter case in a path: the tool's routes match it exactly (express's default is any case), so that the route that
// answers a path, the limit it counts against (admission.ts) and the way the request log shows it are decided alike:
// `/ASSIGNMENTS/…/SUBMISSIONS` is no upload, and `/CHECKER/CALLBACK/<secret>` no callback. Every router of the
// tool's is made here; the app gets the same setting (app.ts). ltijs's own app (express 4, at /lti) matches its
// routes in any case, so the guard in front of it (lti-guard.ts) lets only exact paths through.
import { Router } from 'express';

export const CASE_SENSITIVE_ROUTING = 'case sensitive routing';

/** A router of the tool's: its paths match in their exact letter case. */
export function toolRouter(): Router {
  return Router({ caseSensitive: true });
}

/** How a path is compared where it is classified or redacted: in lower case, so that no letter case slips past. */
export const comparablePath = (path: string): string => path.toLowerCase();
