// GET /metrics: the tool's metrics in Prometheus's text format (src/observe/metrics.ts). They tell how busy the tool is and
// how its service and LMSs answer, which is nobody else's business: by default they answer a scraper on this
// machine only, judged from the connection as /dev is (src/web/local-only.ts: a loopback peer, no forwarding
// header, a Host of this machine); with METRICS_TOKEN set, also a scraper elsewhere that sends it as a bearer
// token. Everyone else gets a sentence saying how to get in.
import type { Router } from 'express';
import type { ToolMetrics } from '../observe/metrics.js';
import { sameSecret } from '../config/secrets.js';
import { notLocal } from './local-only.js';
import { toolRouter } from './routing.js';

const BEARER = /^Bearer ([\x21-\x7e]+)$/;

export function metricsRoutes(deps: { metrics: ToolMetrics; token: string | null; publicUrl: string }): Router {
  const router = toolRouter();
  const publicHost = new URL(deps.publicUrl).hostname.replace(/^\[|\]$/g, '');
  router.get('/metrics', async (req, res) => {
    const bearer = BEARER.exec(req.headers.authorization ?? '')?.[1];
    const allowed =
      notLocal(req, publicHost) === null ||
      (deps.token !== null && bearer !== undefined && sameSecret(bearer, deps.token));
    res.setHeader('Cache-Control', 'no-store');
    if (!allowed) {
      if (deps.token === null) {
        res
          .status(403)
          .type('text/plain')
          .send(
            'The metrics answer only to a scraper on the machine the tool runs on. To scrape them from elsewhere, start the tool with METRICS_TOKEN and send it as a bearer token.\n',
          );
        return;
      }
      res.status(401).setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      res
        .type('text/plain')
        .send(
          'The metrics need the bearer token METRICS_TOKEN (Authorization: Bearer <token>) from outside the machine the tool runs on.\n',
        );
      return;
    }
    res.type(deps.metrics.contentType).send(await deps.metrics.scrape());
  });
  return router;
}
