// The student's file name, kept only as a label: no path parts, no control characters, bounded length, and the
// extension of the type the file really is.
import { FILE_EXTENSIONS, type FileType } from '../assignments/settings.js';

const MAX_LABEL = 120;

export function fileLabel(original: string | undefined, type: FileType): string {
  const base = (original ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  const extension = FILE_EXTENSIONS[type];
  const stem = cleaned
    .replace(/\.[^.]{1,10}$/, '')
    .slice(0, MAX_LABEL - extension.length - 1)
    .trim();
  return `${stem.length > 0 ? stem : 'paper'}.${extension}`;
}
