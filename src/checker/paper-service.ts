// What the tool's domain (folders, the submission pipeline, reports) needs from the checking service, in its own
// terms. paper-service-adapter.ts serves it with the client; keeping the domain to this small surface keeps it
// readable and testable.
import type { FolderSettings, ReportKind, UploadInput } from './types.js';

export type PaperResult =
  | { state: 'pending' }
  | { state: 'done'; similarity: number; aiScore: number | null; grammarScore: number | null; reportKey: string }
  | { state: 'error'; reason: string };

/** An upload as the domain asks for it: the classroom family, always checked for plagiarism. `fileName` is the
 * name the service keeps; it carries the submission id, so a lost answer can be found again. */
export type UploadRequest = Omit<UploadInput, 'family' | 'plagiarismCheck'>;

/** A folder as the pipeline asks for it: the checker's folder settings and a name. */
export type FolderRequest = FolderSettings & { name: string };

export interface PaperService {
  createFolder(folder: FolderRequest): Promise<number>;
  updateFolder(folderId: number, folder: FolderRequest): Promise<void>;
  /** The id of the folder with this exact name, if the account has one (a create whose answer was lost). */
  findFolder(name: string): Promise<number | null>;
  upload(request: UploadRequest): Promise<{ paperId: number }>;
  /** The paper in the folder with this file name, if the service has one. */
  findPaper(folderId: number, fileName: string): Promise<number | null>;
  result(folderId: number, paperId: number): Promise<PaperResult>;
  deletePaper(folderId: number, paperId: number): Promise<void>;
  /** A report as a stream to pass on (PDF). */
  report(
    kind: ReportKind,
    paper: { folderId: number; paperId: number; reportKey: string | null },
  ): Promise<{ stream: NodeJS.ReadableStream; contentType: string; contentLength: number | null }>;
  /** Logs in (again): whether the account's credentials work. */
  checkLogin(): Promise<void>;
}
