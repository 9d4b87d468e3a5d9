// Folder create, update and delete, the same rules for both families: a name unique within the account's
// folders of the family (409 otherwise), settings from the family's body, delete takes the papers with it.
import type { Response } from 'express';
import type { SandboxContext } from './context.js';
import { ApiError } from './errors.js';
import { applyFolderBody, folderBodies } from './folder-body.js';
import { defaultFolderSettings } from './folder-settings.js';
import type { Account, Family, Folder } from './records.js';
import { parseBody } from './validation.js';
import type { Views } from './views.js';

export function createFolderActions(ctx: SandboxContext, views: Views) {
  function checkNameFree(ownerId: number, family: Family, name: string, except?: Folder): void {
    const taken = ctx.store
      .foldersOf(ownerId, family)
      .some((f) => f.id !== except?.id && f.name.toLowerCase() === name.toLowerCase());
    if (taken) throw new ApiError(409, `A folder named "${name}" exists already.`);
  }

  return {
    create(family: Family, account: Account, rawBody: unknown): Folder {
      const body = parseBody(folderBodies[family], rawBody);
      checkNameFree(account.id, family, body.name);
      return ctx.store.addFolder({
        ownerId: account.id,
        family,
        name: body.name,
        createdAt: new Date(),
        settings: applyFolderBody(body, defaultFolderSettings()),
      });
    },

    update(folder: Folder, rawBody: unknown): void {
      const body = parseBody(folderBodies[folder.family], rawBody);
      checkNameFree(folder.ownerId, folder.family, body.name, folder);
      ctx.store.updateFolder(folder, { name: body.name, settings: applyFolderBody(body, folder.settings) });
    },

    remove(folder: Folder, res: Response): void {
      ctx.store.deleteFolder(folder);
      res.json(views.envelope(200, 'Folder deleted successfully'));
    },
  };
}

export type FolderActions = ReturnType<typeof createFolderActions>;
