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

  /** The platform's user token ltijs keeps per (iss, clientId, deploymentId, user), with the launch's context: the tool's own LaunchToken. */
  export type IdToken = import('../lti/platform.js').LaunchToken;

  /** What the tool registers a platform with (it gives a keys URL only): the tool's own PlatformRecord. */
  export type PlatformRegistration = import('../lti/platform.js').PlatformRecord;

  export interface Platform {
    platformUrl(): Promise<string>;
    platformClientId(): Promise<string>;
    platformName(name?: string): Promise<string>;
    platformId(): Promise<string>;
    platformKid(): Promise<string>;
    platformActive(active?: boolean): Promise<boolean>;
    platformPublicKey(): Promise<string | false>;
    platformAccessToken(
      scopes: string,
    ): Promise<{ access_token: string; token_type: string; expires_in: number; scope?: string }>;
    platformPrivateKey(): Promise<string>;
    platformAuthorizationServer(): Promise<string>;
    platformAccessTokenEndpoint(): Promise<string>;
    platformAuthConfig(): Promise<{ method: 'RSA_KEY' | 'JWK_KEY' | 'JWK_SET'; key: unknown }>;
    platformJSON(): Promise<{
      id: string;
      url: string;
      clientId: string;
      name: string;
      authenticationEndpoint: string;
      accesstokenEndpoint: string;
      authorizationServer?: string;
      authConfig: { method: string; key: string };
      publicKey: string;
      active: boolean;
    }>;
    delete(): Promise<true>;
  }

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
    registerPlatform(platform: PlatformRegistration): Promise<Platform>;
    getPlatform(url: string, clientId: string): Promise<Platform | false>;
    getPlatform(url: string): Promise<Platform[] | false>;
    getPlatformById(id: string): Promise<Platform | false>;
    getAllPlatforms(): Promise<Platform[]>;
    deletePlatform(url: string, clientId: string): Promise<true>;
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
