// What the job queue's own reads take: the tool's pool, or anything else that runs a query with parameters, passed
// in so that each operation names its SQL as text.
import type pg from 'pg';

export type Queryable = Pick<pg.Pool, 'query'>;
