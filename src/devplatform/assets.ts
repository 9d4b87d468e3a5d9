// The Asset Service of the Asset Processor (lti-notes §4, 2.3 step 6; Canvas:
// app/controllers/lti/ims/asset_processor_controller.rb `lti_asset_show`): each submitted file or text entry has an
// address the notice names; it answers only a live access token granted the asset.readonly scope, and, as Canvas
// does, redirects to a short-lived signed address of its file storage, which serves the bytes. The faults the tests
// switch on (state.ts) break the download in the ways a real platform does.
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { MountConcern, PlatformContext } from './context.js';
import type { NoticeAsset } from './notices.js';
import { BLACKBOARD_TEXT_ENTRY, checksumField, DIALECT_SCOPES } from './dialect.js';
import type { NewAsset, StoredAsset } from './state.js';
import { requireGrant } from './token.js';

const ASSET_PATH = '/assets';
const FILE_PATH = '/files';
/** How long a signed file address is good for. */
const FILE_ADDRESS_SECONDS = 60;

export const assetUrl = (platform: PlatformContext, assetId: string) =>
  `${platform.baseUrl}${ASSET_PATH}/${encodeURIComponent(assetId)}`;

/** The asset's entry in a notice's assetservice claim. */
export function noticeAsset(platform: PlatformContext, asset: StoredAsset): NoticeAsset {
  return {
    asset_id: asset.id,
    url: assetUrl(platform, asset.id),
    ...checksumField(platform.memory.dialect, asset.content),
    size: asset.content.length,
    content_type: asset.contentType,
    ...(asset.title !== undefined
      ? { title: asset.title }
      : asset.filename !== undefined
        ? { title: asset.filename }
        : {}),
    ...(asset.filename !== undefined ? { filename: asset.filename } : {}),
    timestamp: asset.storedAt,
  };
}

export function storeAsset(platform: PlatformContext, given: NewAsset): NoticeAsset {
  // Blackboard sends a text entry as a file of its own name (dialect.ts).
  const asset =
    platform.memory.dialect === 'blackboard' && given.filename === undefined
      ? { ...given, filename: BLACKBOARD_TEXT_ENTRY, title: BLACKBOARD_TEXT_ENTRY }
      : given;
  const stored: StoredAsset = {
    ...asset,
    id: randomUUID(),
    sha256: createHash('sha256').update(asset.content).digest('hex'),
    storedAt: new Date().toISOString(),
  };
  platform.memory.assets.set(stored.id, stored);
  return noticeAsset(platform, stored);
}

const signature = (platform: PlatformContext, assetId: string, expires: number) =>
  createHmac('sha256', platform.memory.fileSecret).update(`${assetId}\n${expires}`).digest('base64url');

function signedFileUrl(platform: PlatformContext, assetId: string): string {
  const expires = Math.floor(Date.now() / 1000) + FILE_ADDRESS_SECONDS;
  return `${platform.baseUrl}${FILE_PATH}/${encodeURIComponent(assetId)}?${new URLSearchParams({ expires: String(expires), signature: signature(platform, assetId, expires) })}`;
}

function validSignature(
  platform: PlatformContext,
  assetId: string,
  query: Record<string, unknown>,
): 'valid' | 'expired' | 'forged' {
  const expires = Number(query.expires);
  const given = Buffer.from(typeof query.signature === 'string' ? query.signature : '');
  const expected = Buffer.from(Number.isInteger(expires) ? signature(platform, assetId, expires) : '');
  if (given.length === 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
  return expires * 1000 < Date.now() ? 'expired' : 'valid';
}

/** Holds the answer as the delay faults ask; false when the client went away meanwhile (or is to wait forever). */
async function held(platform: PlatformContext, res: Response): Promise<boolean> {
  const { faults } = platform.memory;
  if (!faults.assetHangs && !faults.assetDelayMs) return true;
  await new Promise<void>((resolve) => {
    const timer = faults.assetHangs ? null : setTimeout(resolve, faults.assetDelayMs);
    // The response closes before it is written only when the client went away.
    res.once('close', () => {
      if (timer) clearTimeout(timer);
      resolve();
    });
  });
  return !res.destroyed && !faults.assetHangs;
}

/** Content-Disposition with the file's own name (RFC 6266, RFC 8187 for names beyond ASCII). */
const disposition = (filename: string | undefined) =>
  filename === undefined
    ? 'inline'
    : `attachment; filename="${filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`;

export const mountAssetService: MountConcern = (router, platform) => {
  const { memory } = platform;
  router.get(
    `${ASSET_PATH}/:assetId`,
    (req, res, next) => requireGrant(platform, DIALECT_SCOPES[platform.memory.dialect].asset)(req, res, next),
    async (req: Request, res: Response) => {
      const asset = memory.assets.get(String(req.params.assetId));
      if (!asset) return void res.status(404).json({ error: 'No such asset.' });
      if (!(await held(platform, res))) return;
      if (memory.faults.assetFailures) {
        memory.faults.assetFailures -= 1;
        return void res.status(500).json({ error: 'The file storage failed (switched on by the test).' });
      }
      res.redirect(302, signedFileUrl(platform, asset.id));
    },
  );

  // The file storage: no token, only the signature of the address the Asset Service handed out.
  router.get(`${FILE_PATH}/:assetId`, (req: Request, res: Response) => {
    const assetId = String(req.params.assetId);
    const asset = memory.assets.get(assetId);
    const check = asset ? validSignature(platform, assetId, req.query) : 'forged';
    if (!asset || check === 'forged')
      return void res.status(403).json({ error: 'This file address is not signed by the platform.' });
    if (check === 'expired')
      return void res
        .status(403)
        .json({ error: 'This file address has expired: ask the Asset Service for the file again.' });
    if (memory.faults.assetRedirectLoop) return void res.redirect(302, assetUrl(platform, assetId));
    const bytes = memory.faults.assetWrongBytes ? tampered(asset.content) : asset.content;
    res.setHeader('Content-Type', asset.contentType);
    res.setHeader('Content-Length', String(bytes.length));
    res.setHeader('Content-Disposition', disposition(asset.filename));
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(bytes);
  });
};

/** The same number of bytes, another checksum. */
function tampered(content: Buffer): Buffer {
  if (content.length === 0) return Buffer.from('x');
  const copy = Buffer.from(content);
  copy[0] = copy[0]! ^ 0xff;
  return copy;
}
