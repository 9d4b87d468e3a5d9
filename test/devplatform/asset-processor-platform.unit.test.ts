// The dev platform's side of the Asset Processor, as Canvas serves it, spoken to over HTTP the way a tool speaks
// to it (a client-credentials token from its token endpoint, the notice handler it registered): the Asset Service
// answers only a token granted asset.readonly and redirects to the declared bytes; the Asset Report Service keeps a
// valid report and refuses each invalid field, saying which; "Resubmit all files" follows Canvas's rule.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { after, before, beforeEach, describe, test } from 'node:test';
import express from 'express';
import { SignJWT, createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, type JWTPayload } from 'jose';
import { createDevPlatform, SubmissionRefused, type DevPlatform } from '../../src/devplatform/index.js';

const LTI_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const SCOPE = {
  asset: 'https://purl.imsglobal.org/spec/lti/scope/asset.readonly',
  report: 'https://purl.imsglobal.org/spec/lti/scope/report',
  noticeHandlers: 'https://purl.imsglobal.org/spec/lti/scope/noticehandlers',
};
const ACTIVITY = 'c0ffee00-0000-4000-8000-000000000001';
const OTHER_ACTIVITY = 'c0ffee00-0000-4000-8000-000000000002';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

let server: Server;
let origin: string;
let lms: DevPlatform;
let sign: (payload: JWTPayload, audience: string) => Promise<string>;
/** What the tool's notice handler received, one request body each. */
const received: Array<{ notices: Array<{ jwt: string }> }> = [];
let handlerStatus = 200;

before(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = 'test-tool-key';
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  sign = (payload, audience) =>
    new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer('ap-client')
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti(randomUUID())
      .sign(privateKey);
  const app = express();
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // The tool's side, as little of it as the platform needs: its keys and its notice handler.
  app.get('/tool/jwks', (_req, res) => void res.json({ keys: [jwk] }));
  app.post('/tool/notices', express.json(), (req, res) => {
    received.push(req.body);
    res.status(handlerStatus).json({ received: true });
  });
  lms = await createDevPlatform({
    baseUrl: `${origin}/lms`,
    clientId: 'ap-client',
    deploymentId: 'ap-deployment',
    rules: 'canvas',
    tool: { loginUrl: `${origin}/tool/login`, launchUrl: `${origin}/tool/launch`, jwksUrl: `${origin}/tool/jwks` },
  });
  app.use('/lms', lms.router);
  await attachProcessor(ACTIVITY);
  await attachProcessor(OTHER_ACTIVITY);
  const registered = await fetch(`${origin}/lms/notice-handlers`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${await accessToken(SCOPE.noticeHandlers)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ notice_type: 'LtiAssetProcessorSubmissionNotice', handler: `${origin}/tool/notices` }),
  });
  assert.equal(registered.status, 200, await registered.text());
});
after(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  lms.setFaults({});
  handlerStatus = 200;
});

/** A token from the platform's token endpoint, as a tool gets one (client_credentials with a signed assertion). */
async function accessToken(...scopes: string[]): Promise<string> {
  const tokenUrl = lms.registration().tokenUrl;
  const answer = await fetch(tokenUrl, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await sign({ sub: 'ap-client' }, tokenUrl),
      scope: scopes.join(' '),
    }),
  });
  assert.equal(answer.status, 200);
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** The tool's deep-linking answer to "Add document processing app" on the assignment `activityId`. */
async function attachProcessor(activityId: string): Promise<void> {
  const jwt = await sign(
    {
      [`${LTI_CLAIM}/message_type`]: 'LtiDeepLinkingResponse',
      [`${LTI_CLAIM}/version`]: '1.3.0',
      [`${LTI_CLAIM}/deployment_id`]: 'ap-deployment',
      'https://purl.imsglobal.org/spec/lti-dl/claim/data': `activity:${activityId}`,
      'https://purl.imsglobal.org/spec/lti-dl/claim/content_items': [
        {
          type: 'ltiAssetProcessor',
          title: 'Originality check',
          custom: { assignment_id: `tool-${activityId}` },
          report: { url: `${origin}/tool/launch` },
        },
      ],
    },
    `${origin}/lms`,
  );
  const answer = await fetch(`${origin}/lms/deep-link-return`, {
    method: 'POST',
    body: new URLSearchParams({ JWT: jwt }),
  });
  assert.equal(answer.status, 200, await answer.text());
}

const download = (url: string, token?: string) =>
  fetch(url, { redirect: 'manual', ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) });
/** Canvas announces the SHA-256 in base64 (doc/api/document_processor.md; test/fixtures/lms/canvas/). */
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');

async function submitEssay(activityId = ACTIVITY, userId = 'student-1') {
  const submitted = await lms.submitToActivity({
    activityId,
    userId,
    files: [{ content: PDF, filename: 'essay.pdf', contentType: 'application/pdf' }],
    text: '<p>My answer.</p>',
  });
  assert.equal(submitted.status, 200, submitted.body);
  return submitted;
}

describe('the Asset Service', () => {
  test('refuses a missing token, a token it never issued and a token without asset.readonly; redirects with one to the declared bytes', async () => {
    const asset = lms.storeAsset({
      content: PDF,
      filename: 'essay.pdf',
      contentType: 'application/pdf',
      title: 'My essay',
    });
    assert.equal(asset.url, `${origin}/lms/assets/${asset.asset_id}`);
    assert.equal(asset.size, PDF.length);
    assert.equal(asset.sha256_checksum, sha256(PDF));
    assert.equal((await download(asset.url)).status, 401);
    assert.equal((await download(asset.url, 'not-a-token')).status, 401);
    assert.equal((await download(asset.url, await accessToken(SCOPE.report))).status, 403);

    const redirect = await download(asset.url, await accessToken(SCOPE.asset));
    assert.equal(redirect.status, 302);
    const fileUrl = redirect.headers.get('location')!;
    const file = await fetch(fileUrl);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'application/pdf');
    assert.equal(file.headers.get('content-length'), String(PDF.length));
    assert.equal(sha256(Buffer.from(await file.arrayBuffer())), asset.sha256_checksum);
    const forged = new URL(fileUrl);
    forged.searchParams.set('expires', String(Number(forged.searchParams.get('expires')) + 3600));
    assert.equal((await fetch(forged)).status, 403, 'a file address with a lengthened life is refused');
  });

  test('a text entry is an HTML asset without a file name; an unknown asset is not found', async () => {
    const entry = lms.storeAsset({ content: Buffer.from('<p>Rivers carve valleys.</p>'), contentType: 'text/html' });
    assert.equal(entry.content_type, 'text/html');
    assert.equal(entry.filename, undefined);
    const token = await accessToken(SCOPE.asset);
    const file = await fetch(entry.url, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(file.headers.get('content-type'), 'text/html');
    assert.equal(await file.text(), '<p>Rivers carve valleys.</p>');
    assert.equal((await download(`${origin}/lms/assets/${randomUUID()}`, token)).status, 404);
  });

  test('faults: failures counted down, other bytes than declared, a redirect loop, a slow and a silent answer', async () => {
    const asset = lms.storeAsset({ content: PDF, filename: 'essay.pdf', contentType: 'application/pdf' });
    const token = await accessToken(SCOPE.asset);
    lms.setFaults({ assetFailures: 2 });
    assert.deepEqual(
      [
        (await download(asset.url, token)).status,
        (await download(asset.url, token)).status,
        (await download(asset.url, token)).status,
      ],
      [500, 500, 302],
    );

    lms.setFaults({ assetWrongBytes: true });
    const wrong = Buffer.from(
      await (await fetch(asset.url, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer(),
    );
    assert.equal(wrong.length, asset.size);
    assert.notEqual(sha256(wrong), asset.sha256_checksum);

    lms.setFaults({ assetRedirectLoop: true });
    await assert.rejects(fetch(asset.url, { headers: { authorization: `Bearer ${token}` } }), /fetch failed/);

    lms.setFaults({ assetDelayMs: 400 });
    const started = Date.now();
    assert.equal((await download(asset.url, token)).status, 302);
    assert.ok(Date.now() - started >= 350, 'the answer waited');

    lms.setFaults({ assetHangs: true });
    await assert.rejects(
      fetch(asset.url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(300) }),
      /aborted|timeout/i,
    );
  });
});

describe('a submission to the LMS assignment', () => {
  test('stores the files and the text entry and POSTs one signed notice to the handler the tool registered', async () => {
    const before = received.length;
    const first = await submitEssay();
    assert.match(first.submissionId, /^[0-9a-f-]{36}:1$/);
    assert.equal(received.length, before + 1);
    const [notice] = received.at(-1)!.notices;
    const { payload } = await jwtVerify(notice!.jwt, createRemoteJWKSet(new URL(lms.registration().jwksUrl)), {
      issuer: `${origin}/lms`,
      audience: 'ap-client',
    });
    assert.equal((payload[`${LTI_CLAIM}/notice`] as { type: string }).type, 'LtiAssetProcessorSubmissionNotice');
    assert.deepEqual(payload[`${LTI_CLAIM}/submission`], { id: first.submissionId });
    assert.deepEqual(payload[`${LTI_CLAIM}/for_user`], { user_id: 'student-1' });
    assert.deepEqual(payload[`${LTI_CLAIM}/custom`], { assignment_id: `tool-${ACTIVITY}` });
    assert.equal(
      (payload[`${LTI_CLAIM}/assetreport`] as { report_url: string }).report_url,
      `${origin}/lms/asset-reports/${ACTIVITY}`,
    );
    const assets = (payload[`${LTI_CLAIM}/assetservice`] as { assets: Array<Record<string, unknown>> }).assets;
    assert.deepEqual(
      assets.map((a) => [a.filename, a.content_type, a.size]),
      [
        ['essay.pdf', 'application/pdf', PDF.length],
        [undefined, 'text/html', 17],
      ],
    );

    const second = await submitEssay();
    assert.equal(second.submissionId, `${first.submissionId.split(':')[0]}:2`, 'the next attempt of the same student');
  });

  test("the handler's answer comes back; no processor attached, no notice", async () => {
    handlerStatus = 503;
    const refused = await lms.submitToActivity({ activityId: ACTIVITY, userId: 'student-2', text: '<p>Late.</p>' });
    assert.equal(refused.status, 503);
    await assert.rejects(
      lms.submitToActivity({ activityId: 'no-processor', userId: 'student-1', text: '<p>x</p>' }),
      (error: Error) =>
        error instanceof SubmissionRefused && /No document processing app is attached/.test(error.message),
    );
  });
});

describe('the Asset Report Service', () => {
  const post = async (body: unknown, options: { activityId?: string; token?: string } = {}) => {
    const answer = await fetch(`${origin}/lms/asset-reports/${options.activityId ?? ACTIVITY}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.token ?? (await accessToken(SCOPE.report))}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    return {
      status: answer.status,
      body: (await answer.json()) as Record<string, unknown> & { errors?: Array<{ field?: string; message: string }> },
    };
  };
  const report = (assetId: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    assetId,
    type: 'originality',
    timestamp: '2026-01-24T17:56:53.221123+00:00',
    title: 'Originality',
    result: '83%',
    indicationColor: '#EC0000',
    indicationAlt: 'High percentage of matched text.',
    priority: 5,
    processingProgress: 'Processed',
    visibleToOwner: true,
    ...extra,
  });

  test('keeps a valid report and answers 201 with it as stored, namespaced extensions echoed', async () => {
    const { assets } = await submitEssay();
    const body = report(assets[0]!.asset_id, { 'https://tool.example/score': 83, stray: 'dropped' });
    const answer = await post(body);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    const { stray: _dropped, ...kept } = body;
    assert.deepEqual(answer.body, kept);
    assert.deepEqual(
      lms.assetReports().find((r) => r.assetId === assets[0]!.asset_id),
      kept,
    );
    const { at, ...logged } = lms.assetReportLog().at(-1)!;
    assert.deepEqual(logged, { body, status: 201 });
    assert.ok(Math.abs(at - Date.now()) < 60_000, 'the log says when the report arrived');
  });

  test('refuses a report without a token or with the wrong scope, and one on an asset of another assignment', async () => {
    const { assets } = await submitEssay();
    const noToken = await fetch(`${origin}/lms/asset-reports/${ACTIVITY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(report(assets[0]!.asset_id)),
    });
    assert.equal(noToken.status, 401);
    assert.equal((await post(report(assets[0]!.asset_id), { token: await accessToken(SCOPE.asset) })).status, 403);
    const elsewhere = await post(report(assets[0]!.asset_id), { activityId: OTHER_ACTIVITY });
    assert.equal(elsewhere.status, 400);
    assert.equal(elsewhere.body.errors?.[0]?.field, 'assetId');
  });

  const invalid: Array<[string, Record<string, unknown>, number, string]> = [
    ['no assetId', { assetId: undefined }, 400, 'assetId'],
    ['an empty type', { type: '' }, 400, 'type'],
    ['a timestamp that is not ISO 8601', { timestamp: 'yesterday' }, 400, 'timestamp'],
    ['no processingProgress', { processingProgress: undefined }, 422, 'processingProgress'],
    ['a priority of 6', { priority: 6 }, 422, 'priority'],
    ['a priority of 2.5', { priority: 2.5 }, 422, 'priority'],
    ['a colour name', { indicationColor: 'red' }, 422, 'indicationColor'],
    ['visibleToOwner as a string', { visibleToOwner: 'yes' }, 422, 'visibleToOwner'],
    ['an empty indicationAlt', { indicationAlt: '' }, 422, 'indicationAlt'],
    ['a number as result', { result: 83 }, 422, 'result'],
    ['a title of 1025 characters', { title: 'x'.repeat(1025) }, 422, 'title'],
    ['an empty errorCode', { errorCode: '' }, 422, 'errorCode'],
    ['an empty comment', { comment: '' }, 422, 'comment'],
  ];
  for (const [what, change, status, field] of invalid) {
    test(`refuses ${what} with ${status}, naming ${field}`, async () => {
      const { assets } = await submitEssay();
      const answer = await post(report(assets[0]!.asset_id, change));
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.ok(
        answer.body.errors?.some((error) => error.field === field && error.message.length > 0),
        JSON.stringify(answer.body),
      );
      assert.equal(lms.assetReports().filter((r) => r.assetId === assets[0]!.asset_id).length, 0, 'nothing kept');
      assert.equal(lms.assetReportLog().at(-1)?.status, status);
    });
  }

  test('an older timestamp is a conflict (409) and changes nothing; an equal or newer one replaces the report', async () => {
    const { assets } = await submitEssay();
    const assetId = assets[0]!.asset_id;
    assert.equal(
      (await post(report(assetId, { timestamp: '2026-02-01T10:00:00.000002Z', result: '40%' }))).status,
      201,
    );
    const older = await post(report(assetId, { timestamp: '2026-02-01T10:00:00.000001Z', result: '10%' }));
    assert.equal(older.status, 409);
    assert.match(older.body.errors![0]!.message, /newer timestamp/);
    assert.equal(lms.assetReports().find((r) => r.assetId === assetId)?.result, '40%');
    assert.equal(
      (await post(report(assetId, { timestamp: '2026-02-01T11:00:00.000002+01:00', result: '41%' }))).status,
      201,
      'the same instant in another zone',
    );
    assert.equal((await post(report(assetId, { timestamp: '2026-02-01T10:05:00Z', result: '42%' }))).status, 201);
    assert.equal(lms.assetReports().find((r) => r.assetId === assetId)?.result, '42%');
    assert.equal(
      (await post(report(assetId, { type: 'ai', timestamp: '2026-01-01T00:00:00Z', result: '5%' }))).status,
      201,
      'another type has its own timeline',
    );
    assert.equal(lms.assetReports().filter((r) => r.assetId === assetId).length, 2);
  });

  test("a result longer than 16 characters: Canvas keeps it (up to 255), the specification's platform refuses it", async () => {
    const { assets } = await submitEssay();
    assert.equal((await post(report(assets[0]!.asset_id, { result: '83% of 1200 words matched' }))).status, 201);
    lms.setRules('spec');
    try {
      const refused = await post(
        report(assets[0]!.asset_id, { result: '83% of 1200 words matched', timestamp: '2026-03-01T00:00:00Z' }),
      );
      assert.equal(refused.status, 422);
      assert.equal(refused.body.errors?.[0]?.field, 'result');
    } finally {
      lms.setRules('canvas');
    }
  });

  test('an unknown processingProgress is kept, as Canvas keeps it', async () => {
    const { assets } = await submitEssay();
    const answer = await post(report(assets[0]!.asset_id, { processingProgress: 'Queued' }));
    assert.equal(answer.status, 201);
    assert.equal(answer.body.processingProgress, 'Queued');
  });

  describe('"Resubmit all files"', () => {
    const failed = (assetId: string, errorCode: string) =>
      report(assetId, {
        processingProgress: 'Failed',
        errorCode,
        result: undefined,
        timestamp: new Date().toISOString(),
      });
    test('is offered before any report, and resends the same submission and assets', async () => {
      const { submissionId, assets } = await submitEssay();
      const before = received.length;
      const resent = await lms.resubmitAll(submissionId);
      assert.deepEqual(resent, { sent: true, status: 200, body: '{"received":true}' });
      const payload = JSON.parse(Buffer.from(received[before]!.notices[0]!.jwt.split('.')[1]!, 'base64url').toString());
      assert.deepEqual(payload[`${LTI_CLAIM}/submission`], { id: submissionId });
      assert.deepEqual(
        (payload[`${LTI_CLAIM}/assetservice`].assets as Array<{ asset_id: string }>).map((a) => a.asset_id),
        assets.map((a) => a.asset_id),
      );
    });
    test('is offered after a PendingManual report, or a failure for EULA_NOT_ACCEPTED or DOWNLOAD_FAILED', async () => {
      for (const body of [
        (id: string) => report(id, { processingProgress: 'PendingManual' }),
        (id: string) => failed(id, 'EULA_NOT_ACCEPTED'),
        (id: string) => failed(id, 'DOWNLOAD_FAILED'),
      ]) {
        const { submissionId, assets } = await submitEssay();
        assert.equal((await post(body(assets[0]!.asset_id))).status, 201);
        assert.equal((await lms.resubmitAll(submissionId)).sent, true);
      }
    });
    test('is refused, with the reason, once reports are processed or failed for good', async () => {
      for (const body of [(id: string) => report(id), (id: string) => failed(id, 'UNSUPPORTED_ASSET_TYPE')]) {
        const { submissionId, assets } = await submitEssay();
        assert.equal((await post(body(assets[0]!.asset_id))).status, 201);
        const before = received.length;
        const refused = await lms.resubmitAll(submissionId);
        assert.equal(refused.sent, false);
        assert.match(
          refused.sent ? '' : refused.reason,
          /offered only while no report has arrived.*originality: (Processed|Failed)/,
        );
        assert.equal(received.length, before, 'no notice sent');
      }
    });
  });
});

describe('the pages a person tries the Asset Processor with', () => {
  const text = (html: string) =>
    html
      .replace(/<[^>]+>/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, ' ');
  const page = async (url: string) => {
    const answer = await fetch(url);
    return { status: answer.status, body: await answer.text() };
  };
  const hrefs = (html: string, label: string) =>
    [...html.matchAll(/<a[^>]*href="([^"]+)"[^>]*>([^<]*)<\/a>/g)]
      .filter((m) => m[2]!.includes(label))
      .map((m) => m[1]!.replace(/&amp;/g, '&'));

  /** The tool's part of the OIDC login: the platform's authorization endpoint, and the id_token it answers with. */
  async function idTokenOf(loginUrl: string): Promise<JWTPayload> {
    const login = new URL(loginUrl);
    assert.equal(login.origin + login.pathname, `${origin}/tool/login`);
    const auth = new URL(lms.registration().authUrl);
    for (const [name, value] of Object.entries({
      client_id: 'ap-client',
      redirect_uri: `${origin}/tool/launch`,
      response_type: 'id_token',
      response_mode: 'form_post',
      scope: 'openid',
      nonce: randomUUID(),
      state: 's',
      prompt: 'none',
    }))
      auth.searchParams.set(name, value);
    auth.searchParams.set('login_hint', login.searchParams.get('login_hint')!);
    auth.searchParams.set('lti_message_hint', login.searchParams.get('lti_message_hint')!);
    const form = await page(auth.toString());
    assert.equal(form.status, 200, form.body);
    const idToken = form.body.match(/name="id_token" value="([^"]+)"/)![1]!;
    const { payload } = await jwtVerify(idToken, createRemoteJWKSet(new URL(lms.registration().jwksUrl)), {
      issuer: `${origin}/lms`,
      audience: 'ap-client',
    });
    return { ...payload, target: login.searchParams.get('target_link_uri') };
  }

  test('the assignment page adds a document processing app by a deep-linking launch that takes only a processor', async () => {
    const activityId = '5a1d0c3e-7b2f-4c51-9e0a-d0c5e7a11001';
    const home = await page(`${origin}/lms/`);
    const [assignment] = hrefs(home.body, 'Essay on rivers');
    assert.equal(assignment, `${origin}/lms/activities/${activityId}`);
    const before = await page(assignment!);
    assert.match(text(before.body), /No document processing app is attached yet/);
    const [add] = hrefs(before.body, 'Add document processing app as Iris Instructor');
    const claims = await idTokenOf(add!);
    assert.equal(claims[`${LTI_CLAIM}/message_type`], 'LtiDeepLinkingRequest');
    assert.deepEqual(claims[`${LTI_CLAIM}/activity`], { id: activityId, title: 'Essay on rivers' });
    assert.deepEqual(
      (claims['https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings'] as { accept_types: string[] })
        .accept_types,
      ['ltiAssetProcessor'],
    );
    assert.ok(
      claims[`${LTI_CLAIM}/platformnotificationservice`],
      'the notification service, to subscribe before answering',
    );

    await attachProcessor(activityId);
    assert.match(
      text((await page(assignment!)).body),
      /Originality check \(reports open at http:\/\/127\.0\.0\.1:\d+\/tool\/launch\)/,
    );
  });

  test('a student submits files and a text entry from the form, and the tool hears of it', async () => {
    const form = await page(`${origin}/lms/activities/${ACTIVITY}/submit?user=student-3`);
    assert.equal(form.status, 200);
    assert.match(form.body, /enctype="multipart\/form-data"/);
    assert.equal((await page(`${origin}/lms/activities/${ACTIVITY}/submit?user=instructor-1`)).status, 403);
    const body = new FormData();
    body.set('user', 'student-3');
    body.append('files', new Blob([PDF], { type: 'application/pdf' }), 'lab.pdf');
    body.append('files', new Blob(['plain notes'], { type: 'text/plain' }), 'notes.txt');
    body.set('text', 'First paragraph & more.\n\nSecond one.');
    const before = received.length;
    const answer = await fetch(`${origin}/lms/activities/${ACTIVITY}/submit`, { method: 'POST', body });
    const shown = await answer.text();
    assert.equal(answer.status, 201, shown);
    assert.match(text(shown), /3 asset\(s\)\. The tool's notice handler answered 200/);
    const payload = JSON.parse(Buffer.from(received[before]!.notices[0]!.jwt.split('.')[1]!, 'base64url').toString());
    const assets = payload[`${LTI_CLAIM}/assetservice`].assets as Array<{
      filename?: string;
      content_type: string;
      url: string;
    }>;
    assert.deepEqual(
      assets.map((a) => [a.filename, a.content_type]),
      [
        ['lab.pdf', 'application/pdf'],
        ['notes.txt', 'text/plain'],
        [undefined, 'text/html'],
      ],
    );
    const entry = await fetch(assets[2]!.url, {
      headers: { authorization: `Bearer ${await accessToken(SCOPE.asset)}` },
    });
    assert.equal(await entry.text(), '<p>First paragraph &amp; more.</p>\n<p>Second one.</p>');

    const empty = new FormData();
    empty.set('user', 'student-3');
    const refused = await fetch(`${origin}/lms/activities/${ACTIVITY}/submit`, { method: 'POST', body: empty });
    assert.equal(refused.status, 400);
    assert.match(text(await refused.text()), /needs a file or a text entry/);
  });

  test('SpeedGrader shows each report\'s colour, its meaning and result, and "View report" launches the review of that report', async () => {
    const { submissionId, assets } = await submitEssay(ACTIVITY, 'student-2');
    const reportToken = await accessToken(SCOPE.report);
    const postReport = (body: Record<string, unknown>) =>
      fetch(`${origin}/lms/asset-reports/${ACTIVITY}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${reportToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const base = { assetId: assets[0]!.asset_id, timestamp: new Date().toISOString(), priority: 5 };
    assert.equal(
      (
        await postReport({
          ...base,
          type: 'originality',
          title: 'Originality',
          result: '83% matched text!!',
          indicationColor: '#EC0000',
          indicationAlt: 'High percentage of matched text.',
          processingProgress: 'Processed',
          visibleToOwner: true,
        })
      ).status,
      201,
    );
    assert.equal(
      (
        await postReport({
          ...base,
          type: 'ai',
          title: 'AI writing',
          result: '12%',
          indicationColor: '#00AA00',
          indicationAlt: 'Little AI-written text.',
          processingProgress: 'Processed',
        })
      ).status,
      201,
    );
    assert.equal(
      (
        await postReport({
          ...base,
          assetId: assets[1]!.asset_id,
          type: 'originality',
          processingProgress: 'Failed',
          errorCode: 'ASSET_TOO_SMALL',
          comment: 'Fewer than 20 words.',
        })
      ).status,
      201,
    );

    const teacher = await page(`${origin}/lms/submissions/${encodeURIComponent(submissionId)}?viewer=instructor-1`);
    assert.equal(teacher.status, 200);
    const shown = text(teacher.body);
    assert.match(
      shown,
      /essay\.pdf .*High percentage of matched text\. Originality 83% matched tex… Processed priority 5/,
    );
    assert.match(shown, /Little AI-written text\. AI writing 12% Processed/);
    assert.match(shown, /Text entry .*originality Failed priority 5 Fewer than 20 words\. ASSET_TOO_SMALL/);
    assert.match(
      teacher.body,
      /class="swatch swatch-ec0000" role="img" aria-label="High percentage of matched text\."/,
    );
    assert.match(
      await (await fetch(`${origin}/lms/asset-processor.css`)).text(),
      /\.swatch-ec0000 \{ background: #ec0000; \}/,
    );
    assert.doesNotMatch(shown, /Resubmit all files/, 'not offered once reports are processed or failed for good');

    const views = hrefs(teacher.body, 'View report');
    assert.equal(views.length, 2, 'one per Processed report, none on the failed one');
    const claims = await idTokenOf(views[0]!);
    assert.equal(claims.target, `${origin}/tool/launch`);
    assert.equal(claims.sub, 'instructor-1');
    assert.equal(claims[`${LTI_CLAIM}/message_type`], 'LtiReportReviewRequest');
    assert.equal(claims[`${LTI_CLAIM}/target_link_uri`], `${origin}/tool/launch`);
    assert.deepEqual(claims[`${LTI_CLAIM}/activity`], { id: ACTIVITY });
    assert.deepEqual(claims[`${LTI_CLAIM}/submission`], { id: submissionId });
    assert.deepEqual(claims[`${LTI_CLAIM}/asset`], { id: assets[0]!.asset_id });
    assert.equal(claims[`${LTI_CLAIM}/assetreport_type`], 'originality');
    assert.equal((claims[`${LTI_CLAIM}/for_user`] as { user_id: string }).user_id, 'student-2');
    assert.ok((claims[`${LTI_CLAIM}/roles`] as string[]).some((role) => role.endsWith('#Instructor')));
    assert.deepEqual(claims[`${LTI_CLAIM}/custom`], { assignment_id: `tool-${ACTIVITY}` });

    const student = await page(`${origin}/lms/submissions/${encodeURIComponent(submissionId)}?viewer=student-2`);
    assert.match(
      text(student.body),
      /High percentage of matched text\./,
      'a Processed report made visible to the student',
    );
    assert.doesNotMatch(text(student.body), /Little AI-written text|ASSET_TOO_SMALL/, 'not the others');
    assert.equal(
      (await page(`${origin}/lms/submissions/${encodeURIComponent(submissionId)}?viewer=student-1`)).status,
      403,
      "nor anyone else's",
    );
  });

  test('"Resubmit all files" is a teacher\'s button while Canvas offers it, and sends the notice again', async () => {
    const { submissionId } = await submitEssay(ACTIVITY, 'student-3');
    const view = await page(`${origin}/lms/submissions/${encodeURIComponent(submissionId)}?viewer=instructor-1`);
    assert.match(text(view.body), /No report\..*Resubmit all files/);
    assert.doesNotMatch(
      text((await page(`${origin}/lms/submissions/${encodeURIComponent(submissionId)}?viewer=student-3`)).body),
      /Resubmit all files/,
    );
    const before = received.length;
    const resubmit = (viewer: string) =>
      fetch(`${origin}/lms/submissions/${encodeURIComponent(submissionId)}/resubmit`, {
        method: 'POST',
        body: new URLSearchParams({ viewer }),
      });
    const sent = await resubmit('instructor-1');
    assert.equal(sent.status, 200);
    assert.match(
      text(await sent.text()),
      /Sent the submission's notice again\. The tool's notice handler answered 200/,
    );
    assert.equal(received.length, before + 1);
    assert.equal((await resubmit('student-3')).status, 403);
  });
});
