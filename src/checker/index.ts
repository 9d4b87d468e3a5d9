// The checker client's public surface.
export { CheckerClient, tokenExpiry, type CheckerClientOptions } from './client.js';
export { CheckerError, type CheckerErrorKind } from './errors.js';
export { parseCallback, type CompletionCallback } from './callback.js';
export { parseCreatedFolder, parseFolderList, parseLogin, parsePaper, parsePaperList, parseUpload, readResult } from './parse.js';
export type { Family, Folder, FolderSettings, Paper, ReportKind, Result, UploadInput } from './types.js';
