// Input checks at the edge: a required field that is missing is 400 (spec 7: "missing payload fields"); a field
// that is there but wrong is 422 ("invalid field values"). Path and query ids that are not integers are 400.
import { z } from 'zod';
import { ApiError } from './errors.js';

function valueAt(body: unknown, path: PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined,
    body,
  );
}

function refusal(error: z.ZodError, body: unknown): ApiError {
  const subErrors = error.issues.map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message }));
  const missing = error.issues.filter(
    (issue) => issue.code === 'invalid_type' && valueAt(body, issue.path) === undefined,
  );
  if (missing.length > 0)
    return new ApiError(
      400,
      `Missing required field${missing.length > 1 ? 's' : ''}: ${missing.map((i) => i.path.join('.')).join(', ')}.`,
      {},
      subErrors,
    );
  const first = subErrors[0]!;
  return new ApiError(422, `Invalid value for ${first.field}: ${first.message}`, {}, subErrors);
}

/** A JSON body (or form fields) checked against its schema. No body at all is 400. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'A JSON object body with Content-Type: application/json is required.');
  }
  const result = schema.safeParse(body);
  if (!result.success) throw refusal(result.error, body);
  return result.data;
}

/** An integer id from the path or the query. */
export function integerParam(value: unknown, name: string): number {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value))
    throw new ApiError(400, `${name} must be an integer (given ${JSON.stringify(value ?? null)}).`);
  return Number(value);
}
