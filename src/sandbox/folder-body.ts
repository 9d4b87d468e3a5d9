// The folder request bodies of both families (spec 4.2, 4.3; the classroom create body from checker-facts.md):
// the name under the family's own field, YES/NO switches, up to 15 excluded phrases, an exclusion threshold.
import { z } from 'zod';
import type { FolderSettings } from './folder-settings.js';
import type { Family } from './records.js';

const yesNo = z.enum(['YES', 'NO']).transform((v) => v === 'YES');
const name = z.string().trim().min(1, 'must not be empty').max(300);
const phraseKey = /^p([1-9]|1[0-5])$/;

const switches = {
  exclude_reference: yesNo.optional(),
  exclude_quotes: yesNo.optional(),
  exclude_small_sources: yesNo.optional(),
  grammar_check: yesNo.optional(),
  exclude_phrases: yesNo.optional(),
  // pId is the service's own id of a folder's phrase set; it may come back in an update and means nothing here.
  phrases: z
    .record(z.string().regex(/^(p([1-9]|1[0-5])|pId)$/, 'phrases has keys p1 to p15'), z.string().max(500).nullable())
    .nullable()
    .optional(),
  db_studentpaper: yesNo.optional(),
  db_publications: yesNo.optional(),
  db_internet: yesNo.optional(),
  institution_repository: yesNo.optional(),
  exclude_threshold: z.number().int().min(0).max(100_000).optional(),
};

export const folderBodies = {
  classroom: z
    .object({ assignment_name: name, ...switches })
    .transform(({ assignment_name, ...rest }) => ({ name: assignment_name, ...rest, email_notifications: undefined })),
  pro: z
    .object({ folder_name: name, ...switches, email_notifications: yesNo.optional() })
    .transform(({ folder_name, ...rest }) => ({ name: folder_name, ...rest })),
} satisfies Record<Family, z.ZodType>;

export type FolderBody = z.infer<(typeof folderBodies)['pro']>;

/** The settings after a create or update: what the body says, the rest as it was. */
export function applyFolderBody(body: FolderBody, base: FolderSettings): FolderSettings {
  const phrases = body.phrases
    ? Object.entries(body.phrases)
        .filter(([key, value]) => phraseKey.test(key) && typeof value === 'string' && value.trim() !== '')
        .sort(([a], [b]) => Number(a.slice(1)) - Number(b.slice(1)))
        .map(([, value]) => value!.trim())
    : body.phrases === null
      ? []
      : base.phrases;
  return {
    excludeReferences: body.exclude_reference ?? base.excludeReferences,
    excludeQuotes: body.exclude_quotes ?? base.excludeQuotes,
    excludeSmallSources: body.exclude_small_sources ?? base.excludeSmallSources,
    grammarCheck: body.grammar_check ?? base.grammarCheck,
    excludePhrases: body.exclude_phrases ?? base.excludePhrases,
    phrases,
    studentPapers: body.db_studentpaper ?? base.studentPapers,
    publications: body.db_publications ?? base.publications,
    internet: body.db_internet ?? base.internet,
    institutionRepository: body.institution_repository ?? base.institutionRepository,
    emailNotifications: body.email_notifications ?? base.emailNotifications,
    excludeThreshold: body.exclude_threshold ?? base.excludeThreshold,
  };
}
