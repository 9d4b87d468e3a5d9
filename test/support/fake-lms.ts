// An LMS of the test's own making for LTI Dynamic Registration: it serves whatever configuration the test gives
// (naming any issuer, any endpoints) and answers the registration with any client id and deployment, and counts
// what the tool asked. Attacks on /lti/register are made of these.
import { once } from 'node:events';
import type { Server } from 'node:http';
import express from 'express';
import { Agent, request } from 'undici';

export interface FakeLms {
  /** e.g. http://127.0.0.10:41230 */
  origin: string;
  port: number;
  configurationUrl: string;
  configurationRequests: number;
  registrations: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function serveFakeLms(options: {
  host?: string;
  configuration: (origin: string) => Record<string, unknown>;
  answer?: { clientId: string; deploymentId: string };
}): Promise<FakeLms> {
  const app = express();
  const server: Server = app.listen(0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const lms: FakeLms = {
    origin,
    port,
    configurationUrl: `${origin}/.well-known/openid-configuration`,
    configurationRequests: 0,
    registrations: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  app.get('/.well-known/openid-configuration', (_req, res) => {
    lms.configurationRequests += 1;
    res.json(options.configuration(origin));
  });
  app.post('/register', express.json(), (req, res) => {
    lms.registrations.push(req.body as Record<string, unknown>);
    const answer = options.answer ?? { clientId: 'fake-client', deploymentId: 'fake-deployment' };
    res.json({
      ...req.body,
      client_id: answer.clientId,
      'https://purl.imsglobal.org/spec/lti-tool-configuration': { deployment_id: answer.deploymentId },
    });
  });
  return lms;
}

/** A whole LMS configuration for `issuer` whose endpoints are at `origin`. */
export function configurationFor(issuer: string, origin: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${origin}/auth`,
    token_endpoint: `${origin}/token`,
    jwks_uri: `${origin}/jwks`,
    registration_endpoint: `${origin}/register`,
  };
}

/**
 * Opens the tool's /lti/register for `openidConfiguration` from the loopback address `from` (127.0.0.x), so that
 * tests of the per-address limit do not share the count of the others.
 */
export async function openRegistration(
  toolUrl: string,
  openidConfiguration: string,
  from = '127.0.0.1',
): Promise<{ status: number; text: string; csp: string }> {
  const url = `${toolUrl}/lti/register?openid_configuration=${encodeURIComponent(openidConfiguration)}`;
  const dispatcher = new Agent({ localAddress: from });
  try {
    const response = await request(url, { dispatcher });
    const body = await response.body.text();
    const text = body
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    return { status: response.statusCode, text, csp: String(response.headers['content-security-policy'] ?? '') };
  } finally {
    await dispatcher.close();
  }
}
