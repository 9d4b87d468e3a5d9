// What a setting takes, in words, from its zod schema: for docs/configuration.md's column (markdown) and for the
// sentence that refuses a bad value (plain), so that the page and the message say the same.
import type { z } from 'zod';

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

export type Style = 'markdown' | 'plain';
/** A value as it is written in that style. */
export const literal = (value: unknown, style: Style) =>
  style === 'markdown' ? `\`${String(value)}\`` : String(value);
/** Plain text of a phrase written for the page. */
export const plain = (text: string) => text.replace(/`/g, '');

/** Any text: a string schema with no limit of its own. */
export const TEXT = 'text';

/** What a setting's own schema says: its default (undefined: none) and, where its checks are plain, its values. */
export function readSchema(schema: z.ZodType, style: Style): { default: unknown; values: string | null } {
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
  return { default: fallback, values: valuesOf(current, style) };
}

function valuesOf(schema: z.ZodType, style: Style): string | null {
  const definition = definitionOf(schema);
  if (definition.type === 'enum') {
    const choices = Object.values(definition.entries!).map((value) => literal(value, style));
    return style === 'markdown' ? choices.join(', ') : `one of ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
  }
  if (definition.type === 'number') {
    const number = schema as z.ZodNumber;
    return `${number.isInt ? 'a whole number' : 'a number'} from ${number.minValue} to ${number.maxValue}`;
  }
  if (definition.type === 'string') {
    // Only a length (and trimming) is said here; a pattern or a format needs the description's `values`.
    const lengthOnly = (definition.checks ?? []).every((check) =>
      ['min_length', 'max_length', 'overwrite'].includes(check._zod.def.check),
    );
    if (!lengthOnly) return null;
    const { minLength: min, maxLength: max } = schema as z.ZodString;
    if (min !== null && max !== null) return `${min} to ${max} characters`;
    if (min !== null) return `at least ${min} characters`;
    if (max !== null) return `at most ${max} characters`;
    return TEXT;
  }
  return null;
}

/** A number's limits, for a description that says them in its own words (PORT's "a port number"). */
export function numberLimits(schema: z.ZodType): [number, number] | null {
  const values = readSchema(schema, 'plain').values;
  const match = values?.match(/from (-?[\d.]+) to (-?[\d.]+)$/);
  return match ? [Number(match[1]), Number(match[2])] : null;
}
