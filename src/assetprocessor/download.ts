// Fetching one asset from the LMS's Asset Service: a client-credentials token of the asset.readonly scope, redirects
// followed (Canvas answers with a redirect to its file storage), the body streamed into the database (the store of
// received files, submissions/received-file.ts) under the assignment's
// size limit and a deadline, then checked against the size and checksum the notice declared (checksum.ts reads it as
// each LMS writes it). The token and a new one on 401 are the tool's one way to call an LMS service
// (lti/platform-service.ts). A text entry is kept as its words. What cannot be checked ends with the specification's error code; a failure that may pass is retried.
// https://www.imsglobal.org/spec/lti-ap/v1p0 (Asset Service, error codes) ; Canvas: doc/api/document_processor.md
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { SCOPE } from '../lti/claims.js';
import type { Platform } from '../lti/platform.js';
import { PlatformRequestError, platformDownload, type MinRate } from '../lti/platform-http.js';
import { SERVICE_TIMEOUT_MS, ServiceCallFailed, bearer, withServiceToken } from '../lti/platform-service.js';
import {
  discardReceivedFile,
  readReceivedFile,
  writeReceivedFile,
  type ReceivedFile,
} from '../submissions/received-file.js';
import { ChecksumCheck, type DeclaredChecksum } from './checksum.js';
import { isTextEntry, textOfHtml } from './text-entry.js';

/** The error codes of the Asset Report Service the tool reports a file with, when it could not check it. */
export type AssetErrorCode =
  'ASSET_TOO_LARGE' | 'ASSET_TOO_SMALL' | 'UNSUPPORTED_ASSET_TYPE' | 'DOWNLOAD_FAILED' | 'EULA_NOT_ACCEPTED';

/** The asset could not be checked: `comment` is a sentence for the instructor and student; `retry`: it may pass later. */
export class AssetUnusable extends Error {
  constructor(
    readonly code: AssetErrorCode,
    readonly comment: string,
    readonly retry: boolean,
  ) {
    super(comment);
    this.name = 'AssetUnusable';
  }
}

/** What the notice said of the file. */
export interface DeclaredAsset {
  url: string;
  size: number | null;
  checksum: DeclaredChecksum | null;
  /** The scope the notice listed for the Asset Service (an LMS may name it otherwise); the standard one when null. */
  readScope: string | null;
  contentType: string | null;
  title: string | null;
  filename: string | null;
}

export interface DownloadLimits {
  maxBytes: number;
  /** The whole download, from asking for a token to the last byte. */
  timeoutMs: number;
  /** The least the LMS must keep sending, or null. */
  minRate: MinRate | null;
}

const MAX_REDIRECTS = 5;
const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

function tooLarge(maxBytes: number): AssetUnusable {
  return new AssetUnusable(
    'ASSET_TOO_LARGE',
    `The file is larger than this assignment checks (${megabytes(maxBytes)} at most).`,
    false,
  );
}

const downloadFailed = (why: string, retry = true) =>
  new AssetUnusable('DOWNLOAD_FAILED', `The file could not be fetched from the LMS: ${why}`, retry);

/** A text entry's words as a text file in place of the downloaded HTML, which is removed. */
async function asText(db: Kysely<DatabaseSchema>, file: ReceivedFile, title: string | null): Promise<ReceivedFile> {
  try {
    // The words are read from the whole page, as the service would read them; a text entry is a page of text.
    const html: Buffer[] = [];
    for await (const part of readReceivedFile(db, file)) html.push(part);
    const words = textOfHtml(Buffer.concat(html).toString('utf8'));
    return await writeReceivedFile(
      db,
      [Buffer.from(words, 'utf8')],
      `${title?.trim().replace(/\.html?$/i, '') || 'Text entry'}.txt`,
    );
  } finally {
    await discardReceivedFile(db, file);
  }
}

/** Downloads the asset into the store of received files; throws AssetUnusable when it cannot be checked. */
export async function downloadAsset(
  db: Kysely<DatabaseSchema>,
  platform: Platform,
  asset: DeclaredAsset,
  limits: DownloadLimits,
): Promise<ReceivedFile> {
  if (asset.size !== null && asset.size > limits.maxBytes) throw tooLarge(limits.maxBytes);
  const scope = asset.readScope ?? SCOPE.assetRead;
  const check = asset.checksum ? new ChecksumCheck(asset.checksum) : null;
  const request = {
    accept: '*/*',
    timeoutMs: limits.timeoutMs,
    maxBytes: limits.maxBytes,
    maxRedirects: MAX_REDIRECTS,
    ...(limits.minRate ? { minRate: limits.minRate } : {}),
  };
  let answer;
  try {
    // A 401's body is not written anywhere, so the second try with a new token starts from nothing.
    answer = await withServiceToken(
      platform,
      scope,
      (token) =>
        platformDownload(asset.url, bearer(token, request), (body) =>
          writeReceivedFile(db, check ? check.through(body) : body, asset.filename ?? asset.title ?? ''),
        ),
      Math.min(SERVICE_TIMEOUT_MS, limits.timeoutMs),
    );
  } catch (error) {
    if (error instanceof ServiceCallFailed)
      throw downloadFailed(`the LMS gave the tool no token to read it (${(error.cause as Error).message}).`);
    if (error instanceof PlatformRequestError && error.kind === 'too-large') throw tooLarge(limits.maxBytes);
    // An address the tool may not reach stays so: no use trying again.
    if (error instanceof PlatformRequestError && (error.kind === 'forbidden-address' || error.kind === 'bad-url'))
      throw downloadFailed(error.message, false);
    if (error instanceof PlatformRequestError) throw downloadFailed(error.message);
    throw error;
  }
  if (answer.written === null) {
    throw downloadFailed(`the LMS answered HTTP ${answer.status}.`);
  }
  const file = answer.written;
  const mismatch =
    asset.size !== null && file.size !== asset.size
      ? `it has ${file.size} bytes where the LMS announced ${asset.size}.`
      : check && !check.matches(file.sha256)
        ? `its content does not match the ${check.declared.algorithm === 'md5' ? 'MD5' : 'SHA-256'} checksum the LMS announced.`
        : null;
  if (mismatch) {
    await discardReceivedFile(db, file);
    throw downloadFailed(mismatch);
  }
  return isTextEntry(asset) ? asText(db, file, asset.title) : file;
}
