// CSRF protection for the tool's own forms. Each form carries the session key (ltik) or the admin token in its
// body, which another site cannot know; on top of that, a browser's word that a form comes from another site
// (Sec-Fetch-Site, or else an Origin that is another site's) refuses it. LTI launches arrive from the LMS by design
// and are mounted before this check.
import type { RequestHandler } from 'express';
import { sendMessage, wordsOf } from './views.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function refuseCrossSiteForms(publicUrl: string): RequestHandler {
  const ownOrigin = new URL(publicUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    // "Origin: null" says nothing: the tool's own pages send it for their forms (their Referrer-Policy is
    // no-referrer), and the session key or admin token in the body still has to be right.
    const foreignOrigin = origin !== undefined && origin !== 'null' && origin !== ownOrigin;
    const crossSite = site !== undefined ? site !== 'same-origin' && site !== 'none' : foreignOrigin;
    if (!crossSite) return next();
    const { t } = wordsOf(res);
    sendMessage(res, 403, t('refused.notAccepted'), t('refused.otherSite'));
  };
}
