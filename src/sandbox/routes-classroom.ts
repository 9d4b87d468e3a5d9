// The classroom family (spec 4.2): `/extreme/...` and its upload under `/files/myFolder/...`. Its single
// submission is read at the folder-management address (routes-pro.ts), as the specification lists it.
import { Router } from 'express';
import { accountOf } from './auth.js';
import type { RouteHandlers, SandboxContext } from './context.js';
import type { FolderActions } from './folders.js';
import { pageOf } from './paging.js';
import { folderSortKeys, paperSortKeys } from './sort-keys.js';
import type { Paper } from './records.js';
import { integerParam } from './validation.js';
import type { Views } from './views.js';

export function classroomRoutes(
  ctx: SandboxContext,
  views: Views,
  folders: FolderActions,
  { guard, json, upload }: RouteHandlers,
): Router {
  const router = Router();

  router.get('/extreme/myFolders', guard, (req, res) => {
    const page = pageOf(ctx.store.foldersOf(accountOf(res).id, 'classroom'), req.query, folderSortKeys(ctx), 'ass_id');
    res.json({
      grammar_subscription: 'YES',
      folders: {
        links: [
          {
            rel: 'self',
            href: `${ctx.config.publicUrl()}/extreme/myFolders?page=${page.page.number}&size=${page.page.size}`,
          },
        ],
        content: page.content.map(views.classroomFolder),
        page: page.page,
      },
    });
  });

  router.post('/extreme/folder', guard, json, (req, res) => {
    const folder = folders.create('classroom', accountOf(res), req.body);
    res.json(views.envelope(200, 'Folder created successfully', views.folderHref(folder)));
  });

  router.put('/extreme/folder/:id', guard, json, (req, res) => {
    const folder = ctx.store.folderOf(accountOf(res), integerParam(req.params.id, 'folder_id'), 'classroom');
    folders.update(folder, req.body);
    res.json(views.envelope(200, 'Folder updated successfully', views.folderHref(folder)));
  });

  router.delete('/extreme/folder', guard, (req, res) => {
    folders.remove(ctx.store.folderOf(accountOf(res), integerParam(req.query.id, 'id'), 'classroom'), res);
  });

  router.get('/extreme/myFolder/:id/submissions', guard, (req, res) => {
    const account = accountOf(res);
    const folder = ctx.store.folderOf(account, integerParam(req.params.id, 'folder_id'), 'classroom');
    const page = pageOf<Paper>(ctx.store.papersIn(folder.id), req.query, paperSortKeys, 'paper_id');
    res.json({
      _embedded: { submissionsList: page.content.map((paper) => views.classroomListEntry(paper, account)) },
      page: page.page,
    });
  });

  router.post('/files/myFolder/:id/singleFile', guard, upload);

  router.delete('/extreme/myFolder/:id/submissions', guard, (req, res) => {
    const folder = ctx.store.folderOf(accountOf(res), integerParam(req.params.id, 'folder_id'), 'classroom');
    ctx.store.deletePaper(ctx.store.paperIn(folder, integerParam(req.query.paperId, 'paperId')));
    res.json(views.envelope(200, 'Submission deleted successfully'));
  });

  return router;
}
