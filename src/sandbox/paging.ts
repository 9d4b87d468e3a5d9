// Paged lists (spec 2.4, 4.2, 8): `page` 0-based (default 0), `size` (default 24), `field` to sort on and
// `orderBy` asc or desc (default desc). A value that is not one of these is 400, as a Spring service answers.
import { z } from 'zod';
import { ApiError } from './errors.js';

const MAX_PAGE_SIZE = 2000;

const pageQuery = z.object({
  page: z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number')
    .transform(Number)
    .default(0),
  size: z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(1).max(MAX_PAGE_SIZE))
    .default(24),
  field: z.string().max(64).optional(),
  orderBy: z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(['asc', 'desc']))
    .default('desc'),
});

export type SortKeys<T> = Record<string, (item: T) => string | number>;

export interface Page<T> {
  content: T[];
  page: { size: number; totalElements: number; totalPages: number; number: number };
}

export function pageOf<T>(items: T[], query: unknown, keys: SortKeys<T>, defaultField: string): Page<T> {
  const parsed = pageQuery.safeParse(query ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ApiError(400, `Invalid paging parameter ${issue.path.join('.')}: ${issue.message}.`);
  }
  const { page, size, orderBy } = parsed.data;
  const field = parsed.data.field ?? defaultField;
  const key = keys[field];
  if (!key) throw new ApiError(400, `Cannot sort by "${field}"; one of: ${Object.keys(keys).join(', ')}.`);
  const direction = orderBy === 'asc' ? 1 : -1;
  const sorted = [...items].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return direction * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)));
  });
  return {
    content: sorted.slice(page * size, (page + 1) * size),
    page: { size, totalElements: items.length, totalPages: Math.ceil(items.length / size), number: page },
  };
}
