// What the upload page tells the browser, so that it refuses a wrong type or a too large file before sending a
// byte: the same limits the server's intake applies (maxFileBytes, the assignment's file types), from the same
// settings. The browser can only go by the file's name; the server still checks the real type.
import { FILE_EXTENSIONS, maxFileBytes, type AssignmentSettings } from '../assignments/settings.js';

export interface UploadLimits {
  maxBytes: number;
  maxMb: number;
  /** For the file input's accept attribute and the browser's name check: ".pdf,.docx". */
  accept: string;
}

export function uploadLimits(settings: Pick<AssignmentSettings, 'maxFileMb' | 'allowedFileTypes'>): UploadLimits {
  const extensions = settings.allowedFileTypes.flatMap((type) =>
    type === 'html' ? ['.html', '.htm'] : [`.${FILE_EXTENSIONS[type]}`],
  );
  return {
    maxBytes: maxFileBytes(settings),
    maxMb: settings.maxFileMb,
    accept: extensions.join(','),
  };
}
