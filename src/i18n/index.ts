// The words of the tool's pages: one catalogue per language (en.ts is the complete reference; the others hold
// what they translate and fall back to English key by key), looked up by `wordsFor(language)`. A message names
// its parameters (`{name}`); one that counts something has plural forms chosen by Intl.PluralRules.
import { de } from './de.js';
import { en } from './en.js';
import { formatsFor, type Formats } from './format.js';
import { languageOf, perLocale, type Language } from './language.js';
import type { Message } from './message.js';
import type { MessageKey, Translation } from './translation.js';

export type { Message, PluralMessage } from './message.js';
export type { MessageKey, Translation } from './translation.js';

type Placeholders<S> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never;
type Forms<M> = M extends string ? M : M[keyof M];
/** The parameters a message names in English; a plural message counts `count`. */
export type ParamsOf<K extends MessageKey> =
  Placeholders<Forms<(typeof en)[K]>> | ((typeof en)[K] extends string ? never : 'count');

/**
 * A parameter: text, a number (written the language's way), or words of the catalogue (a sentence, or a list of them
 * said one after another with commas), so that code which does not know the reader can still name things in words.
 */
export type Params = Record<string, string | number | Sentence | readonly Sentence[]>;

/** The messages that take no parameter. */
export type PlainKey = { [K in MessageKey]: [ParamsOf<K>] extends [never] ? K : never }[MessageKey];

/**
 * Each language's catalogue, one line a language: the type checker asks for a line for each of LANGUAGES
 * (language.ts), and the catalogue's test holds every one complete and naming only English's placeholders.
 */
export const CATALOGUES: Readonly<Record<Language, Translation>> = { en, de };

/**
 * A sentence for a person, named by its key: code that does not know who reads it (a refusal in the domain) hands
 * this up, and the page says it in the reader's language (`Words.say`); logs and machines read it in English.
 */
export interface Sentence {
  key: MessageKey;
  params?: Params;
}

/** The sentence in English: an error's message, a log line, a report the LMS shows to whoever reads it. */
export function inEnglish(sentence: Sentence): string {
  return wordsFor('en').say(sentence);
}

/** The placeholders a message's text names, for the test that every translation names only English's. */
export function placeholdersOf(message: Message): string[] {
  const texts =
    typeof message === 'string'
      ? [message]
      : Object.values(message).filter((text): text is string => typeof text === 'string');
  return [...new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!)))];
}

export interface Words extends Formats {
  language: Language;
  /** The language with the reader's region, as dates and numbers are written and <html lang> says: "en-GB". */
  locale: string;
  /** The message in this language (or English), its parameters filled in; numbers written the language's way. */
  t<K extends MessageKey>(
    key: K,
    ...params: [ParamsOf<K>] extends [never] ? [] : [Record<ParamsOf<K>, string | number>]
  ): string;
  /** A sentence handed up by code that does not know the reader (Sentence). */
  say(sentence: Sentence): string;
  /** The message as the catalogue has it (this language's, else English), its parameters left in braces: for scripts. */
  raw(key: MessageKey): Message;
  /** A size in bytes, in the unit that reads best: "532 bytes", "12 KB", "60.0 MB". */
  fileSize(bytes: number): string;
}

/**
 * A locale's words hold nothing of a request: made once per language, or per locale (a language with its region,
 * language.ts's chooseLocale) that readers ask for, as its formats (format.ts).
 */
export const wordsFor = perLocale(makeWords);

function makeWords(locale: string): Words {
  const language = languageOf(locale);
  const formats = formatsFor(locale);
  const plurals = new Intl.PluralRules(language);
  const own = CATALOGUES[language];
  const lookUp = (key: string): Message => {
    const message =
      (own as Record<string, Message | undefined>)[key] ?? (en as Record<string, Message | undefined>)[key];
    if (message === undefined) throw new Error(`No message "${key}" in the catalogue`);
    return message;
  };
  const t = (key: string, params: Params = {}): string => {
    const message = lookUp(key);
    const count = params.count;
    const text =
      typeof message === 'string'
        ? message
        : ((typeof count === 'number' ? message[plurals.select(count)] : undefined) ?? message.other);
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = params[name];
      if (value === undefined) return whole;
      if (typeof value === 'number') return formats.number(value);
      if (typeof value === 'string') return value;
      return 'key' in value ? say(value) : value.map(say).join(', ');
    });
  };
  const say = (sentence: Sentence): string => t(sentence.key, sentence.params);
  const MB = 1024 * 1024;
  return {
    ...formats,
    language,
    locale,
    t: t as Words['t'],
    say,
    raw: lookUp,
    fileSize: (bytes) =>
      bytes >= MB
        ? t('size.megabytes', { size: formats.number(bytes / MB, 1) })
        : bytes >= 1024
          ? t('size.kilobytes', { size: formats.number(Math.round(bytes / 1024)) })
          : t('size.bytes', { count: bytes, size: formats.number(bytes) }),
  };
}

export { chooseLanguage, chooseLocale, acceptedLanguages, LANGUAGES, type Language } from './language.js';
