// The one context every route module takes: made once by the composition root (tool.ts) and handed to each router
// that app.ts mounts. A route module reads what it needs from it and hands the domain functions it calls their own
// small port types (SubmitDeps, ReportDeps, ...), declared beside them; a `Tool` fits each of those as it is.
import type { Kysely } from 'kysely';
import type { ServiceConnections } from '../accounts/connections.js';
import type { EulaTerms } from '../assetprocessor/eula.js';
import type { DatabaseSchema } from '../db/index.js';
import type { Jobs } from '../jobs/index.js';
import type { SignDeepLinkingResponse, PlatformStore } from '../lti/platform.js';
import type { toolUrls } from '../lti/provider.js';
import type { Logger } from '../observe/logger.js';
import type { ToolMetrics } from '../observe/metrics.js';
import type { ResultSink } from '../submissions/result-sink.js';
import type { AdmissionLimits } from './admission.js';

/** What the web process is told by its configuration (config.ts's Config has each of these). */
export interface WebSettings {
  publicUrl: string;
  encryptionKey: string;
  adminToken: string | null;
  metricsToken: string | null;
  callbackSecret: string;
  toolName: string;
  dynamicRegistration: 'open' | 'approve' | 'off';
  registrationsPerAddress: number;
  /** The reverse proxies whose X-Forwarded-For names the client (client-address.ts). */
  trustedProxies: readonly string[];
  /** Uploads one person may have in flight at once. */
  uploadsPerPerson: number;
  production: boolean;
  /** The default service account from the environment (never its password). */
  checker: { url: string | null; username: string | null };
  /** Requests of each class worked on at once (src/web/admission.ts). */
  admission: AdmissionLimits;
  /** An upload whose body sends nothing for this long is cut off. */
  http: { uploadIdleTimeoutMs: number; uploadMinRate: { bytes: number; windowMs: number } | null };
  /** ASSET_PROCESSOR=on: the tool offers itself as the LMS's Asset Processor. */
  assetProcessor: boolean;
  /** The Asset Processor's terms (ASSET_PROCESSOR_EULA=on); null: none. */
  assetProcessorEula: EulaTerms | null;
}

export interface Tool {
  settings: WebSettings;
  /** The tool's LTI addresses (login, launch, keys, registration), made from its public address once. */
  urls: ReturnType<typeof toolUrls>;
  /** The tool's database, as the domain parts take it. */
  db: Kysely<DatabaseSchema>;
  /** The key ltiks and report links are signed with (settings.encryptionKey), where sessions look for it. */
  encryptionKey: string;
  logger: Logger;
  metrics: ToolMetrics;
  jobs: Jobs;
  /** The checking service per assignment: the platform's own account or the default one. */
  services: ServiceConnections;
  /** Where results go (src/submissions/result-sink.ts). */
  sink: ResultSink;
  /** The registered platforms, in the tool's platform table (lti/platform-directory.ts). */
  provider: PlatformStore;
  /** Signs a deep-linking answer for the launch it answers (ltijs). */
  signDeepLinking: SignDeepLinkingResponse;
}
