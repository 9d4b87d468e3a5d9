// A dev platform (LTI 1.3 emulator) on its own HTTP server, registered with a test tool: the other side of
// every launch in the tests.
import { once } from 'node:events';
import type { Server } from 'node:http';
import express from 'express';
import { createDevPlatform, type DevPlatform, type PlatformRules } from '../../src/devplatform/index.js';
import { toolUrls } from '../../src/lti/provider.js';
import { saveRegistration } from '../../src/lti/registrations.js';
import type { TestTool } from './tool.js';

export interface TestPlatform {
  platform: DevPlatform;
  url: string;
  close(): Promise<void>;
}

/** Starts a platform on 127.0.0.1 and, unless told not to, registers it with the tool as the CLI would. */
export async function startTestPlatform(
  tool: TestTool,
  options: { rules?: PlatformRules; clientId?: string; deploymentId?: string; register?: boolean } = {},
): Promise<TestPlatform> {
  const app = express();
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}/lms`;
  const urls = toolUrls(tool.url);
  const platform = await createDevPlatform({
    baseUrl,
    clientId: options.clientId ?? 'tool-client',
    deploymentId: options.deploymentId ?? 'deployment-1',
    tool: { loginUrl: urls.login, launchUrl: urls.launch, jwksUrl: urls.keys },
    rules: options.rules ?? 'spec',
  });
  app.use('/lms', platform.router);
  if (options.register !== false) {
    const registration = platform.registration();
    const lti = tool.tool.lti;
    if (!lti) throw new Error('The test tool runs without LTI');
    await saveRegistration(
      { db: tool.tool.database.db, provider: lti.provider },
      {
        name: registration.name,
        issuer: registration.issuer,
        clientId: registration.clientId,
        deploymentId: registration.deploymentId,
        authUrl: registration.authUrl,
        tokenUrl: registration.tokenUrl,
        jwksUrl: registration.jwksUrl,
      },
      'cli',
    );
  }
  return {
    platform,
    url: baseUrl,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
