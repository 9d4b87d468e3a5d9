// The CLI's refusals of what its flags carry: every wrong flag at once, each sentence naming the flag and what it
// takes in words ("--jwks-url must be a full https address such as …; it is moodle.example.edu/…"), never the
// schema's own message; and an unknown flag with the one it was probably meant to be.
import type { z } from 'zod';
import { nearMiss } from '../config/near-miss.js';

/** Each field of an input schema: its flag, and what it takes, in words. */
export type FlagWords<Field extends string> = Record<Field, { flag: string; takes: string }>;

const shown = (value: unknown) => {
  const text = String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

/** One sentence per flag the schema refused, in the flags' order. */
export function flagProblems<Field extends string>(
  issues: z.core.$ZodIssue[],
  given: Partial<Record<Field, unknown>>,
  words: FlagWords<Field>,
): string[] {
  const sentences = new Map<string, string>();
  for (const issue of issues) {
    const field = String(issue.path[0]) as Field;
    const { flag, takes } = words[field] ?? { flag: `--${field}`, takes: issue.message };
    if (sentences.has(flag)) continue;
    const value = given[field];
    // A rule that knows the value it was probably meant to be says so (registrations.ts, the product family).
    const meant = issue.code === 'custom' ? (issue.params as { meant?: unknown } | undefined)?.meant : undefined;
    sentences.set(
      flag,
      value === undefined || value === ''
        ? `${flag} is required: ${takes}.`
        : `${flag} must be ${takes}; it is ${shown(value)}${typeof meant === 'string' ? `: did you mean ${meant}?` : '.'}`,
    );
  }
  return [...sentences.values()];
}

/** node:util parseArgs's refusal of a flag, with the known flag it was probably meant to be. */
export function unknownFlagSentence(error: Error, known: string[]): string {
  const name = /^Unknown option '(--?[^']+)'/.exec(error.message)?.[1];
  if (name === undefined) return error.message;
  const meant = nearMiss(name.replace(/^-+/, ''), known);
  return meant
    ? `${name} is not a flag of this command: did you mean --${meant}?`
    : `${name} is not a flag of this command.`;
}
