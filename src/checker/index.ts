// The checker client's public surface.
export { CheckerClient, tokenExpiry, type CheckerClientOptions } from './client.js';
export {
  CheckerError,
  failureOf,
  ServiceError,
  type CheckerErrorKind,
  type FailureKind,
  type ServiceFailure,
} from './errors.js';
export type { CheckerCallObserver, CheckerOperation } from './http.js';
export { parseCallback, type CompletionCallback } from './callback.js';
export {
  parseCreatedFolder,
  parseFolderList,
  parseLogin,
  parsePaper,
  parsePaperList,
  parseUpload,
  parseResultField,
} from './parse.js';
export {
  REPORT_KINDS,
  type Family,
  type Folder,
  type FolderSettings,
  type Paper,
  type PaperFile,
  type ReportKind,
  type Result,
  type UploadInput,
} from './types.js';
export type { FolderRequest, PaperResult, PaperService, UploadRequest } from './paper-service.js';
export { checkerPaperService, resultOf } from './paper-service-adapter.js';
