// The anchors: bare express routes in a process of their own, driven by the same client as the tool so that a
// ratio says what the tool's own work costs on this machine in this run. A launch's hops as the tool's launch has
// them (a redirect to the platform's authorization, its page with an auto-posting form, the form post, one
// redirect, the page), a file stored to disk and synced, and a JSON callback answered. Prints `READY {url}`.
//
// BARE_AUTH_URL names another bare server that serves the authorization page, as the LMS's own process serves it
// in a real launch: the metered process then answers the tool's three hops and nothing more.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import express from 'express';

// Metered by the benchmarks that compare CPU per operation with the tool's; not in the memory anchor.
if (process.env.BENCH_METER_SOCKET) await import(new URL('./meter.mjs', import.meta.url).href);

const app = express();
const dir = mkdtempSync(join(tmpdir(), 'olti-bare-'));
const token = 'x'.repeat(1200); // about the size of a signed id_token
let base = '';

const authUrl = process.env.BARE_AUTH_URL;

app.get('/login', (_req, res) =>
  res.redirect(302, `${authUrl ?? base}/auth?redirect_uri=${encodeURIComponent(`${base}/launch`)}`),
);
app.get('/auth', (req, res) => {
  // Only a bare server's own launch address (the benchmark's), as a platform posts only to a registered one.
  const asked = typeof req.query.redirect_uri === 'string' ? req.query.redirect_uri : '';
  const action = /^http:\/\/127\.0\.0\.1:\d+\/launch$/.test(asked) ? asked : `${base}/launch`;
  res.send(
    `<!doctype html><form method="post" action="${action}"><input type="hidden" name="id_token" value="${token}"><input type="hidden" name="state" value="s"></form>`,
  );
});
// One redirect after the form post, a 303 as the tool's launch answers it.
app.post('/launch', express.urlencoded({ extended: false }), (_req, res) => res.redirect(303, '/page?ltik=t'));
app.get('/page', (_req, res) => res.send('<!doctype html><title>Page</title><p>Hello</p>'));
app.post('/upload', async (req, res) => {
  const path = join(dir, randomUUID());
  await pipeline(req, createWriteStream(path));
  const handle = await open(path, 'r');
  await handle.sync();
  await handle.close();
  res.status(201).json({ stored: true });
  await rm(path, { force: true });
});
app.put('/callback', express.json(), (_req, res) => res.json({ received: true }));

const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
const address = server.address();
base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
process.stdout.write(`READY ${JSON.stringify({ url: base })}\n`);
process.on('SIGTERM', () => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
