// A dev platform (LTI 1.3 emulator) on its own HTTP server, registered with a test tool: the other side of
// every launch in the tests.
import { once } from 'node:events';
import type { Server } from 'node:http';
import express from 'express';
import { createDevPlatform, type DevPlatform, type PlatformRules } from '../../src/devplatform/index.js';
import type { AssetProcessorDialect } from '../../src/devplatform/dialect.js';
import type { Course } from '../../src/devplatform/state.js';
import { routeOriginForTests } from '../../src/lti/platform-http.js';
import { toolUrls } from '../../src/lti/provider.js';
import { saveRegistration } from '../../src/lti/registrations.js';
import { runToExit } from './process.js';
import type { TestTool } from './tool.js';

export interface TestPlatform {
  platform: DevPlatform;
  url: string;
  close(): Promise<void>;
}

export interface ServedPlatform extends TestPlatform {
  /** The express app the platform is mounted in (at /lms; at its root for a hosted Canvas), for extra routes. */
  app: express.Express;
  /** A hosted Canvas's SSO host: the paths the tool and the browser asked of it, in order. */
  ssoRequests: string[];
}

/** An express app listening on a free port of `host`. */
async function listening(host: string): Promise<{ app: express.Express; server: Server; origin: string }> {
  const app = express();
  const server: Server = app.listen(0, host);
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, server, origin: `http://${host}:${port}` };
}

const closing = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * Hosted Canvas (test/fixtures/lms/canvas/hosted-registration.json): the shared issuer it signs as, and the SSO host
 * its keys, OIDC authorization and token endpoint are on, which a second loopback server plays and the tool is told to
 * reach there (routeOriginForTests). The school's own host is the platform's address, 127.0.0.1 and a port.
 */
export interface HostedCanvas {
  issuer: string;
  ssoOrigin: string;
}

export const HOSTED_CANVAS = {
  production: { issuer: 'https://canvas.instructure.com', ssoOrigin: 'https://sso.canvaslms.com' },
  beta: { issuer: 'https://canvas.beta.instructure.com', ssoOrigin: 'https://sso.beta.canvaslms.com' },
  test: { issuer: 'https://canvas.test.instructure.com', ssoOrigin: 'https://sso.test.canvaslms.com' },
} as const satisfies Record<string, HostedCanvas>;

type PlatformOptions = {
  /** Plays a hosted Canvas (Canvas's rules, the shared issuer, the SSO host beside the school's). */
  hosted?: HostedCanvas;
  rules?: PlatformRules;
  dialect?: AssetProcessorDialect;
  clientId?: string;
  deploymentId?: string;
  course?: Course;
  /** 127.0.0.1 unless told (another loopback address stands for another host). */ host?: string;
};

/** A platform on 127.0.0.1 (or options.host) for the tool at `toolUrl`, not registered anywhere yet. */
export async function servePlatform(toolUrl: string, options: PlatformOptions = {}): Promise<ServedPlatform> {
  const { hosted } = options;
  const { app, server, origin } = await listening(options.host ?? '127.0.0.1');
  const sso = hosted ? await listening('127.0.0.1') : null;
  const mount = hosted ? '/' : '/lms';
  const baseUrl = hosted ? origin : `${origin}/lms`;
  const urls = toolUrls(toolUrl);
  const platform = await createDevPlatform({
    baseUrl,
    clientId: options.clientId ?? 'tool-client',
    deploymentId: options.deploymentId ?? 'deployment-1',
    tool: { loginUrl: urls.login, launchUrl: urls.launch, jwksUrl: urls.keys, registerUrl: urls.register },
    rules: hosted ? 'canvas' : (options.rules ?? 'spec'),
    ...(hosted && sso ? { issuer: hosted.issuer, sso: { origin: hosted.ssoOrigin, servedAt: sso.origin } } : {}),
    ...(options.dialect ? { dialect: options.dialect } : {}),
    ...(options.course ? { course: options.course } : {}),
  });
  app.use(mount, platform.router);
  const ssoRequests: string[] = [];
  if (hosted && sso && platform.ssoRouter) {
    sso.app.use((req, _res, next) => {
      ssoRequests.push(req.path);
      next();
    });
    sso.app.use(platform.ssoRouter);
    routeOriginForTests(hosted.ssoOrigin, sso.origin);
  }
  return {
    platform,
    url: baseUrl,
    app,
    ssoRequests,
    close: async () => {
      if (hosted) routeOriginForTests(hosted.ssoOrigin, null);
      await Promise.all([closing(server), ...(sso ? [closing(sso.server)] : [])]);
    },
  };
}

/** Starts a platform on 127.0.0.1 and, unless told not to, registers it with the tool as the CLI would. */
export async function startTestPlatform(
  tool: TestTool,
  options: PlatformOptions & {
    register?: boolean;
    /** The LMS product it is registered as (the tool takes on its look); none by default. */ productFamily?: string;
  } = {},
): Promise<ServedPlatform> {
  const served = await servePlatform(tool.url, options);
  if (options.register !== false) {
    const registration = served.platform.registration();
    await saveRegistration(
      { db: tool.tool.database.db, provider: tool.tool.platforms },
      {
        name: registration.name,
        issuer: registration.issuer,
        clientId: registration.clientId,
        deploymentId: registration.deploymentId,
        authUrl: registration.authUrl,
        tokenUrl: registration.tokenUrl,
        jwksUrl: registration.jwksUrl,
        ...(options.productFamily ? { productFamily: options.productFamily } : {}),
      },
      'cli',
    );
  }
  return served;
}

/** Registers a platform with a tool running elsewhere, through `npm run cli -- platform add`. */
export async function registerWithCli(
  env: Record<string, string>,
  registration: ReturnType<DevPlatform['registration']>,
): Promise<void> {
  const result = await runToExit(
    'cli/main.ts',
    [
      'platform',
      'add',
      '--name',
      registration.name,
      '--issuer',
      registration.issuer,
      '--client-id',
      registration.clientId,
      '--deployment-id',
      registration.deploymentId,
      '--auth-url',
      registration.authUrl,
      '--token-url',
      registration.tokenUrl,
      '--jwks-url',
      registration.jwksUrl,
    ],
    env,
  );
  if (result.code !== 0) throw new Error(`platform add failed (${result.code}):\n${result.stderr}${result.stdout}`);
}
