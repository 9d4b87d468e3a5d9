// The service's completion callback (spec section 6), read tolerantly and into the tool's names.
import { z } from 'zod';
import { CheckerError } from './errors.js';

const integer = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
]);

const callbackShape = z.object({
  paper_id: integer.pipe(z.number().int().positive()),
  similarity: z.union([z.string().max(20), z.number()]).optional(),
  download_url: z.string().max(4096).optional(),
  flag: integer.pipe(z.union([z.literal(0), z.literal(1)])).optional(),
});

export interface CompletionCallback {
  paperId: number;
  /** The number in "NN%", when the body carries one; the tool reads the paper back rather than trust it. */
  similarityPercent: number | null;
  reportUrl: string | null;
  failed: boolean;
}

export function parseCallback(body: unknown): CompletionCallback {
  const result = callbackShape.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new CheckerError(
      'bad-request',
      null,
      `callback ${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const percent =
    result.data.similarity === undefined ? Number.NaN : Number(String(result.data.similarity).replace('%', '').trim());
  return {
    paperId: result.data.paper_id,
    similarityPercent: Number.isFinite(percent) ? percent : null,
    reportUrl: result.data.download_url ?? null,
    failed: result.data.flag === 1,
  };
}
