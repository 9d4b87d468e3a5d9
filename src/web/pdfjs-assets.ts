// pdf.js, served from the tool's own origin (no CDN: pages live in LMS frames under a strict CSP): the library,
// its worker and the standard fonts a PDF may name without embedding. The legacy build runs in the older browsers
// students use too.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type Router } from 'express';
import { toolRouter } from './routing.js';

const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

export function pdfjsAssets(): Router {
  const router = toolRouter();
  const options = { index: false, maxAge: '1d', fallthrough: false } as const;
  router.get('/static/pdfjs/pdf.min.mjs', (_req, res) =>
    res.sendFile(join(root, 'legacy/build/pdf.min.mjs'), { maxAge: '1d' }),
  );
  router.get('/static/pdfjs/pdf.worker.min.mjs', (_req, res) =>
    res.sendFile(join(root, 'legacy/build/pdf.worker.min.mjs'), { maxAge: '1d' }),
  );
  router.use('/static/pdfjs/standard_fonts', express.static(join(root, 'standard_fonts'), options));
  return router;
}
