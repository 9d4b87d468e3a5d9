// Writes docs/configuration.md from src/config.ts: each variable's default and limits as its zod schema says them,
// and its description as registered beside the schema. Edit the descriptions there, then run `npm run docs:config`;
// test/setup/config-doc.test.ts fails while the page on disk and the schema differ.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { environment, HIDDEN, settingDocs } from '../src/config.js';

export const CONFIGURATION_PAGE = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));

const code = (value: unknown) => `\`${String(value)}\``;

// zod keeps a schema's kind and parts in `def`, and a check's kind in `_zod.def.check`; the public types name only
// what each class adds, so the walk reads the definition through this narrow shape.
interface Definition {
  type: string;
  in?: z.ZodType;
  out?: z.ZodType;
  innerType?: z.ZodType;
  defaultValue?: unknown;
  entries?: Record<string, string>;
  checks?: Array<{ _zod: { def: { check: string } } }>;
}
const definitionOf = (schema: z.ZodType) => schema.def as unknown as Definition;

/** What a setting's own schema says: its default (undefined: none) and, where its checks are plain, its values. */
function readSchema(schema: z.ZodType): { default: unknown; values: string | null } {
  let current = schema;
  // An empty variable counts as unset: each setting is `z.preprocess(emptyToUndefined, <its schema>)`.
  if (definitionOf(current).type === 'pipe' && definitionOf(definitionOf(current).in!).type === 'transform')
    current = definitionOf(current).out!;
  let fallback: unknown;
  if (definitionOf(current).type === 'default') {
    fallback = definitionOf(current).defaultValue;
    current = definitionOf(current).innerType!;
  } else if (definitionOf(current).type === 'optional') {
    current = definitionOf(current).innerType!;
  }
  return { default: fallback, values: valuesOf(current) };
}

function valuesOf(schema: z.ZodType): string | null {
  const definition = definitionOf(schema);
  if (definition.type === 'enum') return Object.values(definition.entries!).map(code).join(', ');
  if (definition.type === 'number') {
    const number = schema as z.ZodNumber;
    return `${number.isInt ? 'a whole number' : 'a number'}, ${number.minValue} to ${number.maxValue}`;
  }
  if (definition.type === 'string') {
    // Only a length (and trimming) is said here; a pattern or a format needs the description's `values`.
    const plain = (definition.checks ?? []).every((check) =>
      ['min_length', 'max_length', 'overwrite'].includes(check._zod.def.check),
    );
    if (!plain) return null;
    const { minLength: min, maxLength: max } = schema as z.ZodString;
    if (min !== null && max !== null) return `${min} to ${max} characters`;
    if (min !== null) return `at least ${min} characters`;
    if (max !== null) return `at most ${max} characters`;
    return TEXT;
  }
  return null;
}
const TEXT = 'text';

/** One row of the table: the variable, its default, its values, what it does. */
function row(name: string, schema: z.ZodType): string[] {
  const doc = settingDocs.get(schema);
  if (!doc)
    throw new Error(
      `${name} has no description in src/config.ts: register one with .register(settingDocs, { description })`,
    );
  const own = readSchema(schema);
  if (doc.default !== undefined && own.default !== undefined) {
    throw new Error(
      `${name}: its default is in its schema (${code(own.default)}); drop the \`default\` of its description`,
    );
  }
  if (doc.values !== undefined && own.values !== null && own.values !== TEXT) {
    throw new Error(`${name}: its schema says its values (${own.values}); drop the \`values\` of its description`);
  }
  const values = doc.values ?? own.values;
  if (values === null)
    throw new Error(`${name}: its schema's checks cannot be said simply; give its description \`values\``);
  const fallback = doc.default ?? (own.default === undefined ? 'none' : code(own.default));
  const description = HIDDEN.has(name) ? `${doc.description}. Never shown in messages or logs` : doc.description;
  return [code(name), fallback, values, description];
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The whole page, from a settings schema (the tool's, unless a test gives another). */
export function configurationPage(schema: z.ZodObject = environment): string {
  const rows = Object.entries(schema.shape).map(
    ([name, setting]) =>
      `| ${row(name, setting as z.ZodType)
        .map(cell)
        .join(' | ')} |`,
  );
  return `# Configuration

<!-- Written by \`npm run docs:config\` from src/config.ts: edit the descriptions there, not here. -->

Every setting is an environment variable, read once at start by \`src/config.ts\` (nothing else reads the
environment). An empty value counts as unset. A bad value stops the process with one sentence that names the
variable (the value of a secret is never shown), and a non-zero exit. What production needs, and which settings
every process of an installation shares, is in [Operations](operations.md).

| variable | default | values | meaning |
|---|---|---|---|
${rows.join('\n')}
`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(CONFIGURATION_PAGE, configurationPage());
  console.log(`${CONFIGURATION_PAGE}: ${Object.keys(environment.shape).length} settings.`);
}
