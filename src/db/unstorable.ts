// PostgreSQL cannot store a NUL character, in text or in JSON: a value holding one is refused with one of these
// codes. What was sent is at fault, not the tool, and nothing of the statement is written.
const CODES = new Set(['22P05', '22021']);

export function isUnstorableText(error: unknown): boolean {
  return CODES.has(String((error as { code?: unknown } | null)?.code));
}
