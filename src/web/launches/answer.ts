// What answering one message type's launch takes (the table is index.ts): the page it opens once its session has
// started, and, where it has them, the reasons the tool turns it away before anything is written and what to read
// in the statement that records it.
import type { Response } from 'express';
import type { LaunchOf } from '../../lti/launch.js';
import type { StartedSession } from '../../lti/launch-session.js';
import type { LaunchMessageType } from '../../lti/messages/index.js';
import type { PlainKey } from '../../i18n/index.js';
import type { Tool } from '../tool-context.js';

/** A launch the tool does not take now: its status, what the person reads, and a reason for the log. */
export interface Refusal {
  status: number;
  title: PlainKey;
  sentence: PlainKey;
  reason: string;
}

export interface LaunchAnswer<Type extends LaunchMessageType> {
  /** Its word in the launch counter (originality_launches_total{kind}). */
  kind: string;
  /** Why the tool does not take it now, before anything is written; null: it does. */
  refused?(tool: Tool): Refusal | null;
  /** The page the launch opens, its session started (its framing and words set by the launch route). */
  answer(tool: Tool, res: Response, started: StartedSession<LaunchOf<Type>>): Promise<void>;
}
