// The tool's own view of the platform store, the launch and the deep-linking answer. The platforms and the tool's key
// pair for each live in the tool's `platform` table, the one registry (platform-directory.ts); ltijs reads them there
// through its storage plugin and signs deep-linking answers (what it still does for the tool, docs/architecture.md);
// it is imported in lti/ltijs/ only, which hands the rest of the tool these types. The method names of `Platform` are
// the ones ltijs gives its own platform objects, so that either serves a service call.
import type { NextFunction, Request, Response } from 'express';
import type { Launch } from './launch.js';
import type { DEEP_LINKING_MESSAGE, MessageOf } from './messages/index.js';

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

/**
 * What ltijs reads of a deep-linking launch to sign its answer (ltijs 5.9.9 dist/Provider/Services/DeepLinking.js,
 * createDeepLinkingMessage): made from the tool's launch at ltijs's door (ltijs/provider.ts), nowhere else.
 */
export interface LtijsIdToken {
  iss: string;
  clientId: string;
  deploymentId: string;
  platformContext: {
    deepLinkingSettings: {
      deep_link_return_url: string;
      accept_types: string[];
      accept_multiple: boolean;
      data?: string;
    };
  };
}

/** A launch whose message is a deep-linking request: the one a deep-linking answer is signed for. */
export type DeepLinkingLaunch = Launch & { message: MessageOf<typeof DEEP_LINKING_MESSAGE> };

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
  launch: DeepLinkingLaunch,
  items: ContentItem[],
  options?: { message?: string },
) => Promise<string>;
