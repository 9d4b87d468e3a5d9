// Assignment and Grade Services 2.0 (https://www.imsglobal.org/spec/lti-ags/v2p0/): the launch's AGS claim, the
// line item service (3.2), the result service (3.3) and the score publish service (3.4), whose verdicts ags-rules.ts
// gives as Moodle or the specification would, and canvas-gradebook.ts as Canvas does.
import express, { type Request, type Response } from 'express';
import { judgeScore } from './ags-rules.js';
import { assignmentLineItemOf, canvasResultJson, canvasScore } from './canvas-gradebook.js';
import type { MountConcern, PlatformContext } from './context.js';
import { createLineItem, scoreKey, submissionReviewOf, type LineItem, type ResourceLink, type Score } from './state.js';
import { SCOPES, requireScope } from './token.js';

export interface GradebookRow extends Score {
  label: string;
}

const AGS_CLAIM = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
const AGS_SCOPES = [SCOPES.lineItem, SCOPES.lineItemRead, SCOPES.result, SCOPES.score];

const lineItemsPath = (platform: PlatformContext) => `/courses/${platform.course.id}/lineitems`;
const lineItemsUrl = (platform: PlatformContext) => `${platform.baseUrl}${lineItemsPath(platform)}`;

/** Moodle's line item URLs carry a query string; its scores URL keeps it (…/lineitem/scores?type_id=1). */
export function lineItemUrl(platform: PlatformContext, id: string): string {
  return platform.memory.rules === 'moodle'
    ? `${lineItemsUrl(platform)}/${id}/lineitem?type_id=1`
    : `${lineItemsUrl(platform)}/${id}`;
}

export const lineItemJson = (platform: PlatformContext, item: LineItem) => ({
  ...item,
  id: lineItemUrl(platform, item.id),
});

/**
 * The AGS claim of a launch (https://www.imsglobal.org/spec/lti-ags/v2p0/#assignment-and-grade-service-claim):
 * `lineitem` only when the link has exactly one line item.
 */
export function agsClaim(platform: PlatformContext, link?: ResourceLink): Record<string, unknown> {
  const single = link?.lineItemIds.length === 1 ? lineItemUrl(platform, link.lineItemIds[0]!) : undefined;
  return {
    [AGS_CLAIM]: { scope: AGS_SCOPES, lineitems: lineItemsUrl(platform), ...(single ? { lineitem: single } : {}) },
  };
}

/** The platform's gradebook: every stored score under its column's label. */
export function gradebook(platform: PlatformContext): GradebookRow[] {
  const { scores, lineItems } = platform.memory;
  return [...scores.values()].map((score) => ({
    ...score,
    label: lineItems.get(score.lineItemId)?.label ?? score.lineItemId,
  }));
}

export const mountAgs: MountConcern = (router, platform) => {
  const { memory, baseUrl } = platform;
  const json = express.json({ type: () => true, limit: '256kb' });
  const base = lineItemsPath(platform);
  const readItems = requireScope(platform, SCOPES.lineItem, SCOPES.lineItemRead);
  const writeItems = requireScope(platform, SCOPES.lineItem);
  const itemJson = (item: LineItem) => JSON.stringify(lineItemJson(platform, item));

  // Line item container with filters and paging through Link rel="next"
  // (https://www.imsglobal.org/spec/lti-ags/v2p0/#container-request-filters-0).
  router.get(base, readItems, (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    let found = [...memory.lineItems.values()].filter(
      (item) =>
        (!q.resource_link_id || item.resourceLinkId === q.resource_link_id) &&
        (!q.resource_id || item.resourceId === q.resource_id) &&
        (!q.tag || item.tag === q.tag),
    );
    const limit = Number(q.limit ?? 0);
    const page = Number(q.page ?? 0);
    if (limit > 0) {
      if (found.length > (page + 1) * limit)
        res.setHeader('Link', `<${baseUrl}${base}?limit=${limit}&page=${page + 1}>; rel="next"`);
      found = found.slice(page * limit, (page + 1) * limit);
    }
    res
      .type('application/vnd.ims.lis.v2.lineitemcontainer+json')
      .send(JSON.stringify(found.map((item) => lineItemJson(platform, item))));
  });

  // https://www.imsglobal.org/spec/lti-ags/v2p0/#creating-a-new-line-item
  router.post(base, writeItems, json, (req, res) => {
    const body = req.body as Partial<LineItem>;
    if (
      typeof body.label !== 'string' ||
      !body.label.trim() ||
      typeof body.scoreMaximum !== 'number' ||
      body.scoreMaximum <= 0
    ) {
      return void res.status(400).json({ error: 'label and a positive scoreMaximum are required' });
    }
    const link = body.resourceLinkId ? memory.links.get(body.resourceLinkId) : undefined;
    if (body.resourceLinkId && !link)
      return void res.status(404).json({ error: 'The specified resource does not exist' });
    // Canvas adds a line item made with a resourceLinkId to the link's assignment (line_items_controller.rb
    // `assignment`, Lti::LineItem.create_line_item!); without one it makes an assignment of its own.
    const firstOfLink = link?.lineItemIds.map((id) => memory.lineItems.get(id)).find((item) => item !== undefined);
    if (memory.rules === 'canvas' && link && !firstOfLink) return void res.status(412).end();
    const review = submissionReviewOf(body.submissionReview);
    if (review === 'invalid')
      return void res
        .status(400)
        .json({ error: 'submissionReview must be an object with an optional url, reachableBy and custom' });
    const item = createLineItem(memory, {
      label: body.label,
      scoreMaximum: body.scoreMaximum,
      ...(body.tag ? { tag: body.tag } : {}),
      ...(body.resourceId ? { resourceId: body.resourceId } : {}),
      ...(body.resourceLinkId ? { resourceLinkId: body.resourceLinkId } : {}),
      ...(review ? { submissionReview: review } : {}),
      ...(memory.rules === 'canvas' && firstOfLink ? { assignmentId: assignmentLineItemOf(firstOfLink) } : {}),
    });
    res.status(201).type('application/vnd.ims.lis.v2.lineitem+json').send(itemJson(item));
  });

  /** Moodle's line items live at …/:id/lineitem?type_id=1; the others at …/:id. Anything else is 404. */
  function itemOf(req: Request, res: Response, moodleForm: boolean): LineItem | null {
    const item = memory.lineItems.get(String(req.params.id));
    const rightForm = memory.rules === 'moodle' ? moodleForm && req.query.type_id === '1' : !moodleForm;
    if (!item || !rightForm) {
      res.status(404).json({ error: 'No such line item' });
      return null;
    }
    return item;
  }

  for (const moodleForm of [false, true]) {
    const path = moodleForm ? `${base}/:id/lineitem` : `${base}/:id`;
    router.get(path, readItems, (req, res) => {
      const item = itemOf(req, res, moodleForm);
      if (item) res.type('application/vnd.ims.lis.v2.lineitem+json').send(itemJson(item));
    });
    router.put(path, writeItems, json, (req, res) => {
      const item = itemOf(req, res, moodleForm);
      if (!item) return;
      const body = req.body as Partial<LineItem>;
      if (typeof body.label === 'string') item.label = body.label;
      if (typeof body.scoreMaximum === 'number' && body.scoreMaximum > 0) item.scoreMaximum = body.scoreMaximum;
      res.type('application/vnd.ims.lis.v2.lineitem+json').send(itemJson(item));
    });
    router.delete(path, writeItems, (req, res) => {
      const item = itemOf(req, res, moodleForm);
      if (!item) return;
      memory.lineItems.delete(item.id);
      res.status(204).end();
    });
    // https://www.imsglobal.org/spec/lti-ags/v2p0/#score-publish-service
    router.post(`${path}/scores`, requireScope(platform, SCOPES.score), json, (req, res) => {
      const item = itemOf(req, res, moodleForm);
      if (!item) return;
      const body = (req.body ?? {}) as Record<string, unknown>;
      const user = memory.people.get(String(body.userId));
      const resultUrl = `${baseUrl}${base}/${item.id}/results/${encodeURIComponent(String(body.userId))}`;
      if (memory.rules === 'canvas') {
        const verdict = canvasScore(memory, item, body, user);
        memory.scoreLog.push({ lineItemId: item.id, userId: String(body.userId), status: verdict.status, body });
        if (verdict.status !== 200) return void res.status(verdict.status).json({ error: verdict.error });
        return void res.json({ resultUrl });
      }
      const key = scoreKey(item.id, String(body.userId));
      const verdict = judgeScore(memory.rules, body, user, item.id, memory.scores.get(key));
      memory.scoreLog.push({ lineItemId: item.id, userId: String(body.userId), status: verdict.status, body });
      if (!verdict.stored) return void res.status(verdict.status).json({ error: verdict.error });
      memory.scores.set(key, verdict.stored);
      res.status(204).end();
    });
    // https://www.imsglobal.org/spec/lti-ags/v2p0/#result-service
    router.get(`${path}/results`, requireScope(platform, SCOPES.result), (req, res) => {
      const item = itemOf(req, res, moodleForm);
      if (!item) return;
      const wanted = (userId: string) => !req.query.user_id || userId === req.query.user_id;
      const scoreOf = lineItemUrl(platform, item.id);
      // Canvas answers its Lti::Result, which mirrors the last writer (canvas-gradebook.ts); the others the cell.
      const results =
        memory.rules === 'canvas'
          ? [...memory.results.values()]
              .filter((result) => result.lineItemId === item.id && wanted(result.userId))
              .map((result) => ({ userId: result.userId, ...canvasResultJson(memory, item, result), scoreOf }))
          : [...memory.scores.values()]
              .filter((score) => score.lineItemId === item.id && wanted(score.userId))
              .map((score) => ({
                userId: score.userId,
                resultScore: score.scoreGiven,
                resultMaximum: item.scoreMaximum,
                comment: score.comment,
                scoreOf,
              }));
      res.type('application/vnd.ims.lis.v2.resultcontainer+json').send(JSON.stringify(results));
    });
  }
};
