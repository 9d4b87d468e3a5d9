// Writes docs/configuration.md from src/config/config.ts: each variable's default and limits as its zod schema says
// them, and its description as registered beside the schema. Edit the descriptions there, then run
// `npm run docs:config`; test/config/config-doc.unit.test.ts fails while the page on disk and the schema differ.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { environment, HIDDEN, settingDocs } from '../src/config/config.js';
import { literal, numberLimits, readSchema, TEXT } from '../src/config/words.js';

export const CONFIGURATION_PAGE = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));

const code = (value: unknown) => literal(value, 'markdown');

/** One row of the table: the variable, its default, its values, what it does. */
function row(name: string, schema: z.ZodType): string[] {
  const doc = settingDocs.get(schema);
  if (!doc)
    throw new Error(
      `${name} has no description in src/config/config.ts: register one with .register(settingDocs, { description })`,
    );
  const own = readSchema(schema, 'markdown');
  if (doc.default !== undefined && own.default !== undefined) {
    throw new Error(
      `${name}: its default is in its schema (${code(own.default)}); drop the \`default\` of its description`,
    );
  }
  // A number's values may be said in the setting's own words ("a port number") when they name its limits.
  const limits = numberLimits(schema);
  const ownWords = limits !== null && doc.values !== undefined && limits.every((n) => doc.values!.includes(String(n)));
  if (doc.values !== undefined && own.values !== null && own.values !== TEXT && !ownWords) {
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

<!-- Written by \`npm run docs:config\` from src/config/config.ts: edit the descriptions there, not here. -->

Every setting is an environment variable, read once at start by \`src/config/config.ts\` (nothing else reads the
environment). An empty value counts as unset. Bad values stop the process before anything is written, with a
non-zero exit and one sentence for each, all at once: the variable's name and what it takes, in the words of the
table below, and the value given (a secret's length only). A variable that looks like one of these but is not (a
near miss of a name, or a PostgreSQL address under another name) is named at start with the setting it was probably
meant to be. What production needs, and which settings every process of an installation shares, is in
[Operations](operations.md).

| variable | default | values | meaning |
|---|---|---|---|
${rows.join('\n')}
`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(CONFIGURATION_PAGE, configurationPage());
  console.log(`${CONFIGURATION_PAGE}: ${Object.keys(environment.shape).length} settings.`);
}
