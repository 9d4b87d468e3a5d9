// The tables as kysely sees them. Column names are snake_case in SQL and here alike.
import type { ColumnType, Generated } from 'kysely';

export interface LtiRecordTable {
  id: Generated<string>;
  collection: string;
  record_key: string;
  doc: unknown;
  created_at: ColumnType<Date, never, never>;
  expires_at: Date | null;
}

export interface DatabaseSchema {
  lti_record: LtiRecordTable;
}
