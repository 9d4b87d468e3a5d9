// Types for the parts of ltijs 5.9.9 the tool calls, read from its dist/ sources. The published @types/ltijs
// describe the v4 API and are wrong for 5.9 (no appRoute option, no submitScore, no getPlatformById, ...).
declare module 'ltijs' {
  import type { Express, NextFunction, Request, Response } from 'express';

  export interface LtiDatabasePlugin {
    setup(): Promise<true>;
    Close(): Promise<true>;
    Get(
      encryptionKey: string | false,
      collection: string,
      query?: Record<string, unknown>,
    ): Promise<Record<string, unknown>[] | false>;
    Insert(
      encryptionKey: string | false,
      collection: string,
      item: Record<string, unknown>,
      index?: Record<string, unknown>,
    ): Promise<true>;
    Replace(
      encryptionKey: string | false,
      collection: string,
      query: Record<string, unknown>,
      item: Record<string, unknown>,
      index?: Record<string, unknown>,
    ): Promise<true>;
    Modify(
      encryptionKey: string | false,
      collection: string,
      query: Record<string, unknown>,
      modification: Record<string, unknown>,
    ): Promise<true>;
    Delete(collection: string, query: Record<string, unknown>): Promise<true>;
    Encrypt(data: string, secret: string): Promise<{ iv: string; data: string }>;
    Decrypt(data: string, iv: string, secret: string): Promise<string>;
  }

  export interface ProviderOptions {
    appRoute?: string;
    loginRoute?: string;
    keysetRoute?: string;
    dynRegRoute?: string;
    devMode?: boolean;
    ltiaas?: boolean;
    tokenMaxAge?: number | false;
    cors?: boolean;
    cookies?: { secure?: boolean; sameSite?: 'None' | 'Lax' | 'Strict'; domain?: string };
    dynReg?: {
      url: string;
      name: string;
      logo?: string;
      description?: string;
      redirectUris?: string[];
      customParameters?: Record<string, string>;
      autoActivate?: boolean;
      useDeepLinking?: boolean;
    };
  }

  /** What ltijs reads of a launch where the tool hands it one: the deep-linking answer's (lti/platform.ts). */
  export type IdToken = import('../lti/platform.js').LtijsIdToken;

  export type LtiHandler = (token: IdToken, req: Request, res: Response, next: NextFunction) => unknown;
  export type LtiErrorHandler = (req: Request, res: Response, next?: NextFunction) => unknown;

  export type ContentItem = import('../lti/platform.js').ContentItem;

  export interface Provider {
    app: Express;
    Grade: {
      getLineItems(
        idtoken: unknown,
        options?: Record<string, unknown>,
        accessToken?: unknown,
      ): Promise<{ lineItems: Record<string, unknown>[]; next?: string }>;
      createLineItem(
        idtoken: unknown,
        lineItem: Record<string, unknown>,
        options?: Record<string, unknown>,
      ): Promise<Record<string, unknown>>;
      submitScore(
        idtoken: unknown,
        lineItemId: string,
        score: Record<string, unknown>,
      ): Promise<Record<string, unknown>>;
    };
    DeepLinking: {
      createDeepLinkingForm(
        idtoken: IdToken,
        contentItems: ContentItem[],
        options?: { message?: string; errMessage?: string; log?: string; errLog?: string },
      ): Promise<string>;
      createDeepLinkingMessage(
        idtoken: IdToken,
        contentItems: ContentItem[],
        options?: { message?: string; errMessage?: string; log?: string; errLog?: string },
      ): Promise<string>;
    };
    NamesAndRoles: {
      getMembers(
        idtoken: unknown,
        options?: { role?: string; limit?: number; pages?: number; url?: string; resourceLinkId?: boolean },
      ): Promise<{ members: Record<string, unknown>[]; next?: string }>;
    };
    DynamicRegistration?: {
      register(
        openidConfiguration: string,
        registrationToken?: string,
        options?: Record<string, unknown>,
      ): Promise<string>;
    };
    setup(encryptionKey: string, database: { plugin: LtiDatabasePlugin }, options?: ProviderOptions): Provider;
    deploy(options?: { serverless?: boolean; silent?: boolean; port?: number }): Promise<true>;
    close(options?: { silent?: boolean }): Promise<true>;
    onConnect(handler: LtiHandler): true;
    onDeepLinking(handler: LtiHandler): true;
    onDynamicRegistration(handler: (req: Request, res: Response, next: NextFunction) => unknown): true;
    onSessionTimeout(handler: LtiErrorHandler): true;
    onInvalidToken(handler: LtiErrorHandler): true;
    onUnregisteredPlatform(handler: LtiErrorHandler): true;
    onInactivePlatform(handler: LtiErrorHandler): true;
    whitelist(...routes: Array<string | RegExp | { route: string | RegExp; method: string }>): true;
    // Its platform methods (registerPlatform, getPlatform, ...) are left out: the platforms are the tool's `platform`
    // table, written by lti/registrations.ts and read by ltijs through the storage plugin (lti/storage.ts).
    redirect(
      res: Response,
      path: string,
      options?: { newResource?: boolean; query?: Record<string, string> },
    ): Promise<void>;
  }

  export const Provider: Provider;
  const ltijs: { Provider: Provider };
  export default ltijs;
}
