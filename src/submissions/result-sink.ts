// Where a submission's result goes. The pipeline (store, send exactly once, poll, read back) does not know: it tells
// the sink at each step a reader outside the tool may see. Today every assignment's sink is the LMS gradebook
// (src/grades/gradebook-sink.ts: AGS scores); the LTI Asset Processor adds asset reports as a second sink.
import type { AssignmentSettings } from '../assignments/settings.js';
import type { QueueName } from '../jobs/index.js';

/** A student in an assignment: whose standing a sink shows. */
export interface StudentInAssignment {
  assignmentId: string;
  userId: string;
}

export interface ResultSink {
  /** The queue of the sink's own job, so that the work sweep can give a scored paper whose job was lost a new one. */
  readonly queue: QueueName;
  /** The service took the file and is analysing it. */
  accepted(submissionId: string): Promise<void>;
  /** The paper has its result (state `scored`). */
  scored(submissionId: string): Promise<void>;
  /** An instructor deleted an attempt: what the sink shows for the student may now be another attempt's, or none. */
  removed(student: StudentInAssignment): Promise<void>;
  /** Someone asked for a checked attempt's result to be sent again; false when it is already on its way. */
  resend(submissionId: string): Promise<boolean>;
  /** An instructor changed the assignment's settings: what the sink shows may follow them. */
  settingsChanged(assignmentId: string, before: AssignmentSettings, after: AssignmentSettings): Promise<void>;
}
