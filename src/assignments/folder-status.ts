// Where an assignment's settings stand at the checking service, in a sentence for the instructor: the settings
// are saved here at once and reach the service through a job, which may wait for the service or fail.
import type { Assignment } from './store.js';

export interface FolderStatus {
  state: Assignment['folderState'];
  text: string;
}

/** `saved`: the instructor has just saved settings, so a job is on its way even before the folder exists. */
export function folderStatus(assignment: Assignment, saved: boolean): FolderStatus {
  const { folderState: state } = assignment;
  if (state === 'ready') return { state, text: 'Applied: the checking service has these settings.' };
  if (state === 'failed')
    return {
      state,
      text: `The checking service has not accepted these settings yet: ${assignment.folderError ?? 'no reason given'}. The tool keeps trying.`,
    };
  if (saved || assignment.folderId !== null) return { state, text: 'Being applied at the checking service…' };
  return {
    state,
    text: 'Not sent yet: the checking service gets these settings with the first paper, or when you save them.',
  };
}
