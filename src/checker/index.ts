// The checker client's public surface.
export { CheckerClient, tokenExpiry, type CheckerClientOptions } from './client.js';
export { CheckerError, type CheckerErrorKind } from './errors.js';
export { parseCallback, type CompletionCallback } from './callback.js';
export { parseCreatedFolder, parseFolderList, parseLogin, parsePaper, parsePaperList, parseUpload, readResult } from './parse.js';
export type { Family, Folder, FolderSettings, Paper, ReportKind, Result, UploadInput } from './types.js';
export { REPORT_KINDS, type FailureKind, type FolderRequest, type PaperResult, type PaperService, type ServiceFailure, type UploadRequest } from './paper-service.js';
export { checkerPaperService, classifyFailure, resultOf } from './paper-service-adapter.js';
export { accountInput, assignAccount, connectChecker, listAccounts, NoServiceAccount, PaperServices, removeAccount, saveAccount, type AccountInput, type Connect, type ServiceAccount } from './accounts.js';
