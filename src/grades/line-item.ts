// The gradebook column a score goes to (https://www.imsglobal.org/spec/lti-ags/v2p0/#line-item-service): the one
// the launch named, or one the tool finds again or creates, never two for one assignment.
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { ASSIGNMENT_PARAMETER } from '../assignments/placement.js';
import { submissionReviewOfLineItem } from '../lti/messages/submission-review.js';
import { AGS_SCOPES, SIMILARITY_TAG, accessToken, agsCall, parseJson, type AgsAnswer, type AgsRequest } from './ags.js';
import type { ColumnContext } from './grade-context.js';
import type { GradeDeps } from './grade-deps.js';
import { GradeRefused } from './platform-answer.js';

const lineItem = z.object({
  id: z.string().url(),
  label: z.string().optional(),
  resourceId: z.string().optional(),
  tag: z.string().optional(),
});

export interface LineItemSpec {
  label: string;
  scoreMaximum: number;
  resourceId: string;
  tag: string;
  resourceLinkId?: string;
  /** https://www.imsglobal.org/spec/lti-ags/v2p0/#submissionreview: the LMS offers to open the student's submission in the tool. */
  submissionReview: ReturnType<typeof submissionReviewOfLineItem>;
}

/**
 * The line item with this resourceId and tag in the container, created when there is none. Looking it up first
 * (https://www.imsglobal.org/spec/lti-ags/v2p0/#container-request-filters) keeps a course copy or a second process
 * from creating a duplicate column. `other` is a column of the same assignment that is never the answer: a
 * deep-linked assignment's own column carries the same tag and resourceId as the similarity's column of its own,
 * and the two must stay two.
 */
async function findOrCreateLineItem(
  ask: (url: string, init: AgsRequest) => Promise<AgsAnswer>,
  lineItemsUrl: string,
  spec: LineItemSpec,
  other: string | null,
): Promise<string> {
  const query = new URL(lineItemsUrl);
  query.searchParams.set('resource_id', spec.resourceId);
  query.searchParams.set('tag', spec.tag);
  const found = await ask(query.toString(), {
    method: 'GET',
    accept: 'application/vnd.ims.lis.v2.lineitemcontainer+json',
  });
  if (found.status === 200) {
    const items = z.array(lineItem).safeParse(parseJson(found.body));
    const match = items.success
      ? items.data.find((item) => item.resourceId === spec.resourceId && item.tag === spec.tag && item.id !== other)
      : undefined;
    if (match) return match.id;
  }
  // https://www.imsglobal.org/spec/lti-ags/v2p0/#creating-a-new-line-item
  const created = await ask(lineItemsUrl, {
    method: 'POST',
    accept: 'application/vnd.ims.lis.v2.lineitem+json',
    contentType: 'application/vnd.ims.lis.v2.lineitem+json',
    body: spec,
  });
  if (created.status !== 200 && created.status !== 201) {
    throw new Error(`The gradebook refused to create the similarity column (HTTP ${created.status}).`);
  }
  const parsed = lineItem.safeParse(parseJson(created.body));
  if (!parsed.success) throw new Error('The gradebook created the column but did not say its address.');
  return parsed.data.id;
}

/**
 * The column the score goes to. The assignment's own: the one the launch named, else found or created by tag and
 * resourceId. With gradeColumn "similarity": a column of its own beside the assignment's, found again by tag and
 * resourceId (a course copy, a second process) before one is created (in Canvas, an assignment of its own:
 * test/fixtures/lms/canvas/gradebook.md C10); where the platform lets the tool create no columns, the assignment's
 * own.
 */
export async function lineItemFor(deps: GradeDeps, context: ColumnContext): Promise<string> {
  const ownColumn = context.gradeColumn === 'similarity' && context.lineItemsUrl !== null;
  if (context.gradeColumn === 'similarity' && !ownColumn) {
    deps.logger.warn(
      { assignmentId: context.assignmentId },
      "The LMS lets the tool create no gradebook columns: the similarity goes to the assignment's own column",
    );
  }
  if (ownColumn && context.similarityLineItemUrl) return context.similarityLineItemUrl;
  if (!ownColumn && context.lineItemUrl) return context.lineItemUrl;
  const lineItemsUrl = context.lineItemsUrl;
  if (!lineItemsUrl)
    throw new GradeRefused(
      'The LMS gave this assignment no gradebook column and no way to create one (AGS is off for the tool).',
    );
  const column = ownColumn ? ('similarity_line_item_url' as const) : ('line_item_url' as const);
  // The token first: a platform that grants none fails before the lock is taken.
  await accessToken(deps.provider, context.platform, AGS_SCOPES.lineItem);
  const ask = (url: string, init: AgsRequest) =>
    agsCall(deps.provider, context.platform, AGS_SCOPES.lineItem, url, init);
  // One caller at a time looks for the column and creates it: two scores posted at once must not make two. In
  // this process a queue of turns; across processes a session lock on one connection, with no transaction open
  // while the LMS is asked (the embedded database runs one transaction at a time for all its connections, and
  // its single session would grant every caller the lock).
  return oneAtATime(`line-item:${context.assignmentId}`, () =>
    deps.db.connection().execute(async (conn) => {
      const lock = `line-item:${context.assignmentId}`;
      await sql`SELECT pg_advisory_lock(hashtext(${lock}))`.execute(conn);
      try {
        return await findOrCreateColumn(conn, lineItemsUrl);
      } finally {
        // A connection that failed ends its session, which releases the lock as well.
        await sql`SELECT pg_advisory_unlock(hashtext(${lock}))`.execute(conn).catch(() => undefined);
      }
    }),
  );

  async function findOrCreateColumn(conn: Kysely<DatabaseSchema>, listUrl: string): Promise<string> {
    const known = await conn
      .selectFrom('assignment')
      .select(['line_item_url', 'similarity_line_item_url'])
      .where('id', '=', context.assignmentId)
      .executeTakeFirst();
    if (known?.[column]) return known[column];
    const otherColumn = ownColumn ? known?.line_item_url : known?.similarity_line_item_url;
    const url = await findOrCreateLineItem(
      ask,
      listUrl,
      {
        label: ownColumn ? `Similarity: ${context.assignmentTitle}`.slice(0, 255) : context.assignmentTitle,
        scoreMaximum: 100,
        resourceId: context.assignmentId,
        tag: SIMILARITY_TAG,
        // A column of its own is bound to the assignment's link where the LMS makes a column of it; Canvas makes a
        // second line item of the link's assignment, which is no column (platform-quirks.ts linksOwnColumn).
        ...(context.resourceLinkId && (!ownColumn || context.quirks.linksOwnColumn)
          ? { resourceLinkId: context.resourceLinkId }
          : {}),
        submissionReview: submissionReviewOfLineItem({ [ASSIGNMENT_PARAMETER]: context.assignmentId }),
      },
      otherColumn ?? null,
    );
    await conn
      .updateTable('assignment')
      .set({ [column]: url, updated_at: new Date() })
      .where('id', '=', context.assignmentId)
      .execute();
    return url;
  }
}

const turns = new Map<string, Promise<unknown>>();
/** Runs `work` after every earlier call with the same key in this process has settled. */
async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const mine = (turns.get(key) ?? Promise.resolve()).then(work);
  const done = mine.catch(() => undefined);
  turns.set(key, done);
  try {
    return await mine;
  } finally {
    if (turns.get(key) === done) turns.delete(key);
  }
}
