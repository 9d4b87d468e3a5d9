// The folder-management family (spec 4.3): `/pro/...` and its upload under `/files/folder/...`, and the single
// submission that both families read at `/pro/folder/{id}/submission/{paperId}`.
import { Router } from 'express';
import { accountOf } from './auth.js';
import type { RouteHandlers, SandboxContext } from './context.js';
import type { FolderActions } from './folders.js';
import { pageOf } from './paging.js';
import { folderSortKeys, paperSortKeys } from './sort-keys.js';
import type { Paper } from './records.js';
import { integerParam } from './validation.js';
import type { Views } from './views.js';

export function proRoutes(
  ctx: SandboxContext,
  views: Views,
  folders: FolderActions,
  { guard, json, upload }: RouteHandlers,
): Router {
  const router = Router();

  router.get('/pro/folders', guard, (req, res) => {
    const account = accountOf(res);
    const page = pageOf(ctx.store.foldersOf(account.id, 'pro'), req.query, folderSortKeys(ctx), 'ass_id');
    res.json({
      grammar_subscription: 'YES',
      translation: 'NO',
      in_flag: false,
      folders: { content: page.content.map((folder) => views.proFolder(folder, account)), page: page.page },
    });
  });

  router.post('/pro/folder', guard, json, (req, res) => {
    const folder = folders.create('pro', accountOf(res), req.body);
    res.status(201).json(views.envelope(201, 'Folder created successfully', views.folderHref(folder)));
  });

  router.put('/pro/folder/:id', guard, json, (req, res) => {
    folders.update(ctx.store.folderOf(accountOf(res), integerParam(req.params.id, 'folder_id'), 'pro'), req.body);
    res.status(201).json(views.envelope(201, 'Folder updated successfully'));
  });

  router.delete('/pro/folder/:id', guard, (req, res) => {
    folders.remove(ctx.store.folderOf(accountOf(res), integerParam(req.params.id, 'folder_id'), 'pro'), res);
  });

  router.get('/pro/folder/:id/submissions', guard, (req, res) => {
    const account = accountOf(res);
    const folder = ctx.store.folderOf(account, integerParam(req.params.id, 'folder_id'), 'pro');
    const page = pageOf<Paper>(ctx.store.papersIn(folder.id), req.query, paperSortKeys, 'paper_id');
    res.json({
      _embedded: { submissionsDTOList: page.content.map((paper) => views.submission(paper, folder, account)) },
      page: page.page,
    });
  });

  router.post('/files/folder/:id/singleFile', guard, upload);

  router.delete('/pro/folder/:id/submissions', guard, (req, res) => {
    const folder = ctx.store.folderOf(accountOf(res), integerParam(req.params.id, 'folder_id'), 'pro');
    ctx.store.deletePaper(ctx.store.paperIn(folder, integerParam(req.query.paperId, 'paperId')));
    res.json(views.envelope(200, 'Submission deleted successfully'));
  });

  // Both families (spec 4.2 and 4.3 list the same address).
  router.get('/pro/folder/:id/submission/:paperId', guard, (req, res) => {
    const account = accountOf(res);
    const folder = ctx.store.folderOf(account, integerParam(req.params.id, 'folder_id'));
    const paper = ctx.store.paperIn(folder, integerParam(req.params.paperId, 'paper_id'));
    res.json(views.submission(paper, folder, account));
  });

  return router;
}
