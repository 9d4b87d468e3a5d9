// The keys of the catalogue, English's (en.ts is the reference), and the shape another language's catalogue takes.
import type { en } from './en.js';
import type { PluralMessage } from './message.js';

export type MessageKey = keyof typeof en;

/** A language's catalogue: only English's keys (the type checker refuses another), each one optional. */
export type Translation = { readonly [K in MessageKey]?: (typeof en)[K] extends string ? string : PluralMessage };
