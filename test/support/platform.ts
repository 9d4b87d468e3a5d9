// A dev platform (LTI 1.3 emulator) on its own HTTP server, registered with a test tool: the other side of
// every launch in the tests.
import { once } from 'node:events';
import type { Server } from 'node:http';
import express from 'express';
import { createDevPlatform, type DevPlatform, type PlatformRules } from '../../src/devplatform/index.js';
import type { AssetProcessorDialect } from '../../src/devplatform/dialect.js';
import type { Course } from '../../src/devplatform/state.js';
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
  /** The express app the platform is mounted in (at /lms), for extra routes. */
  app: express.Express;
}

type PlatformOptions = {
  rules?: PlatformRules;
  dialect?: AssetProcessorDialect;
  clientId?: string;
  deploymentId?: string;
  course?: Course;
  /** 127.0.0.1 unless told (another loopback address stands for another host). */ host?: string;
};

/** A platform on 127.0.0.1 (or options.host) for the tool at `toolUrl`, not registered anywhere yet. */
export async function servePlatform(toolUrl: string, options: PlatformOptions = {}): Promise<ServedPlatform> {
  const app = express();
  const host = options.host ?? '127.0.0.1';
  const server: Server = app.listen(0, host);
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://${host}:${port}/lms`;
  const urls = toolUrls(toolUrl);
  const platform = await createDevPlatform({
    baseUrl,
    clientId: options.clientId ?? 'tool-client',
    deploymentId: options.deploymentId ?? 'deployment-1',
    tool: { loginUrl: urls.login, launchUrl: urls.launch, jwksUrl: urls.keys, registerUrl: urls.register },
    rules: options.rules ?? 'spec',
    ...(options.dialect ? { dialect: options.dialect } : {}),
    ...(options.course ? { course: options.course } : {}),
  });
  app.use('/lms', platform.router);
  return {
    platform,
    url: baseUrl,
    app,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
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
