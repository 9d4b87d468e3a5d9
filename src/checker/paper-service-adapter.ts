// The domain's view of the checking service (paper-service.ts), served by the client on the classroom family.
import type { CheckerClient } from './client.js';
import type { PaperResult, PaperService } from './paper-service.js';
import type { Paper } from './types.js';

const REASONS: Record<'unreadable' | 'duplicate-in-repository' | 'unknown', string> = {
  unreadable: 'The checking service could not read the document (it may be damaged, protected or a scan without text).',
  'duplicate-in-repository': 'The checking service reports this document as a duplicate already in its repository.',
  unknown: 'The checking service could not analyse the document.',
};

export function resultOf(paper: Paper): PaperResult {
  if (paper.similarity.state === 'pending')
    return paper.failed ? { state: 'error', reason: REASONS.unreadable } : { state: 'pending' };
  if (paper.similarity.state === 'error') return { state: 'error', reason: REASONS[paper.similarity.reason] };
  if (!paper.reportKey) return { state: 'pending' }; // a score without its report key is not finished yet
  return {
    state: 'done',
    similarity: paper.similarity.percent,
    aiScore: paper.aiScore,
    grammarScore: paper.grammarScore,
    reportKey: paper.reportKey,
  };
}

export function checkerPaperService(client: CheckerClient): PaperService {
  return {
    createFolder: (folder) => client.createFolder('classroom', folder.name, folder),
    updateFolder: (folderId, folder) => client.updateFolder('classroom', folderId, folder.name, folder),
    findFolder: async (name) =>
      (await client.allFolders('classroom')).find((folder) => folder.name === name)?.folderId ?? null,
    upload: async (request) => {
      const paper = await client.upload({ family: 'classroom', plagiarismCheck: true, ...request });
      return { paperId: paper.paperId };
    },
    findPaper: async (folderId, fileName) =>
      (await client.allPapers('classroom', folderId)).find((paper) => paper.fileName === fileName)?.paperId ?? null,
    result: async (folderId, paperId) => resultOf(await client.getPaper(folderId, paperId)),
    deletePaper: (folderId, paperId) => client.deletePaper('classroom', folderId, paperId),
    report: (kind, paper) => client.report(kind, paper.paperId, paper.reportKey),
    checkLogin: async () => {
      await client.token();
    },
  };
}
