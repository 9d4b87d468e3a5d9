// The fields a list may be sorted on (`field` in spec 4.2): the service's names, including its internal
// `ass_id` for a folder's id, which is the folders' default.
import type { SandboxContext } from './context.js';
import type { SortKeys } from './paging.js';
import type { Folder, Paper } from './records.js';

export function folderSortKeys(ctx: SandboxContext): SortKeys<Folder> {
  const created = (f: Folder) => f.createdAt.getTime();
  return {
    ass_id: (f) => f.id,
    folder_id: (f) => f.id,
    folder_name: (f) => f.name.toLowerCase(),
    creation_date: created,
    created_date: created,
    no_of_submissions: (f) => ctx.store.papersIn(f.id).length,
  };
}

export const paperSortKeys: SortKeys<Paper> = {
  paper_id: (p) => p.id,
  title: (p) => p.title.toLowerCase(),
  name: (p) => p.authorName.toLowerCase(),
  date_up: (p) => p.uploadedAt.getTime(),
  percent: (p) => p.findings?.percent ?? -1,
};
