// The tool's own view of the platform store, the launch and the deep-linking answer. The platforms and the tool's key
// pair for each live in the tool's `platform` table, the one registry (platform-directory.ts); ltijs reads them there
// through its storage plugin and signs deep-linking answers (what it still does for the tool, docs/architecture.md);
// it is imported in lti/ltijs/ only, which hands the rest of the tool these types. The method names of `Platform` are
// the ones ltijs gives its own platform objects, so that either serves a service call.
import type { NextFunction, Request, Response } from 'express';

/** A registered platform as a service call needs it: its addresses and the key the tool signs its assertions with. */
export interface Platform {
  platformUrl(): Promise<string>;
  platformClientId(): Promise<string>;
  platformKid(): Promise<string>;
  /** The tool's private key for this platform (PEM), decrypted. */
  platformPrivateKey(): Promise<string>;
  platformAuthorizationServer(): Promise<string>;
  platformAccessTokenEndpoint(): Promise<string>;
}

/** Finds a registered platform by issuer and client id; false when there is none. */
export interface PlatformLookup {
  getPlatform(issuer: string, clientId: string): Promise<Platform | false>;
}

/**
 * The platform store: looked up by the services; registrations (registrations.ts) write the rows and take a new key
 * pair from it, sealed with the tool's ENCRYPTION_KEY.
 */
export interface PlatformStore extends PlatformLookup {
  newKeyPair(): Promise<{ keyId: string; privateKey: string }>;
}

/** The launch's context as the session keeps it (per context and user). */
export interface LaunchContext {
  contextId: string;
  user: string;
  context?: { id: string; label?: string; title?: string; type?: string[] };
  resource?: { id: string; title?: string; description?: string };
  messageType?: string;
  version?: string;
  deepLinkingSettings?: Record<string, unknown>;
  roles?: string[];
  targetLinkUri?: string;
  custom?: Record<string, unknown>;
  launchPresentation?: Record<string, unknown>;
  endpoint?: { scope?: string[]; lineitems?: string; lineitem?: string };
  namesRoles?: { context_memberships_url?: string; service_versions?: string[] };
}

/** A verified launch as the session keeps it (per platform, deployment and user), with its context. */
export interface LaunchToken {
  iss: string;
  user: string;
  userInfo?: { given_name?: string; family_name?: string; name?: string; email?: string };
  platformInfo?: Record<string, unknown>;
  clientId: string;
  platformId: string;
  deploymentId: string;
  platformContext: LaunchContext;
}

/** What ltijs refuses at its own routes (lti/ltijs/provider.ts). */
export type RejectedLaunchHandler = (req: Request, res: Response, next?: NextFunction) => unknown;

/** An item of a deep-linking answer (https://www.imsglobal.org/spec/lti-dl/v2p0#content-item-types). */
export interface ContentItem {
  type: string;
  title?: string;
  text?: string;
  url?: string;
  custom?: Record<string, string>;
  lineItem?: {
    scoreMaximum: number;
    label: string;
    resourceId?: string;
    tag?: string;
    submissionReview?: { reachableBy?: string[]; url?: string; custom?: Record<string, string> };
  };
  [extra: string]: unknown;
}

/** Signs the LtiDeepLinkingResponse for a deep-linking launch: the JWT the page posts back to the platform. */
export type SignDeepLinkingResponse = (
  launch: LaunchToken,
  items: ContentItem[],
  options?: { message?: string },
) => Promise<string>;
