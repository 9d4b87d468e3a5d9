// Which of the tool's languages a person reads: the launch's locale (LTI 1.3 core, launch_presentation.locale,
// a BCP 47 tag: https://www.imsglobal.org/spec/lti/v1p3/#launch-presentation-claim), else the browser's
// Accept-Language (RFC 9110 12.5.4) for pages outside a launch, else English.
import { z } from 'zod';

/** The languages the catalogue has; English is complete, the others fall back to it key by key. */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * What is made once per language, or per locale (a language with a region), and holds nothing of a request (Intl's
 * formatters, the words): kept, the least recently used forgotten past 64, since a region is the reader's to name.
 */
export function perLocale<Key extends string, T>(make: (key: Key) => T): (key: Key) => T {
  const made = new Map<Key, T>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      if (made.size >= 64) made.delete(made.keys().next().value!);
    } else made.delete(key);
    made.set(key, value);
    return value;
  };
}

/** The same, for what is made per language alone. */
export const perLanguage: <T>(make: (language: Language) => T) => (language: Language) => T = perLocale;

const supported: ReadonlySet<string> = new Set(LANGUAGES.map((tag) => tag.toLowerCase()));

/** A tag in its canonical form, or null when it is not a well-formed BCP 47 tag. */
function canonical(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag.replace(/_/g, '-'))[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * The best supported language for the tags a person asked for, in their order of preference: the first tag that
 * is supported exactly ("pt-BR" when "pt-BR" is), then by its base language ("de-AT" reads "de"); English when none is.
 */
export function chooseLanguage(wanted: ReadonlyArray<string | null | undefined>): Language {
  for (const tag of wanted) {
    const known = tag ? canonical(tag) : null;
    if (!known) continue;
    if (supported.has(known.toLowerCase())) return LANGUAGES.find((l) => l.toLowerCase() === known.toLowerCase())!;
    const base = new Intl.Locale(known).language;
    if (supported.has(base)) return base as Language;
  }
  return 'en';
}

const acceptLanguageHeader = z.string().max(1000);

/** The tags of an Accept-Language header, most preferred first ("*" and q=0 left out); none for a bad header. */
export function acceptedLanguages(header: unknown): string[] {
  const parsed = acceptLanguageHeader.safeParse(header);
  if (!parsed.success) return [];
  return parsed.data
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .map((p) => p.trim())
          .find((p) => p.startsWith('q='))
          ?.slice(2) ?? '1',
      );
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * How a reader's dates and numbers are written: the language they read with the region they asked for ("en-GB" writes
 * 25 Nov 2026, "en-US" Nov 25, 2026), from the first of their tags in that language that names a region (a launch
 * saying only "en" and a browser asking for "en-GB" read British dates); the bare language when none does. Only the
 * language and a two-letter or three-digit region are kept, so the formats made for them stay few.
 */
export function chooseLocale(language: Language, wanted: ReadonlyArray<string | null | undefined>): string {
  for (const tag of wanted) {
    const known = tag ? canonical(tag) : null;
    if (!known) continue;
    const { language: base, region } = new Intl.Locale(known);
    if (base === language && region && /^([A-Z]{2}|\d{3})$/.test(region)) return `${base}-${region}`;
  }
  return language;
}

/** The language of a locale chosen by chooseLocale ("en-GB" reads "en"). */
export const languageOf = (locale: string): Language => chooseLanguage([locale]);
