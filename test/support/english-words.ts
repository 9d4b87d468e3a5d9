// The English a German page must not show: each message of the catalogue that German words differently, cut at its
// placeholders into fragments long enough to mean something (five characters or more).
import { de } from '../../src/i18n/de.js';
import { en } from '../../src/i18n/en.js';
import type { Message } from '../../src/i18n/index.js';

const texts = (message: Message) =>
  typeof message === 'string'
    ? [message]
    : Object.values(message).filter((text): text is string => typeof text === 'string');

/** The English fragments of the catalogue's messages whose keys `keys` accepts, German's own words left out. */
export function englishFragments(
  keys: (key: string) => boolean = () => true,
): Array<{ key: string; fragment: string }> {
  const german = de as Record<string, Message | undefined>;
  return Object.entries(en as Record<string, Message>)
    .filter(([key]) => keys(key))
    .flatMap(([key, message]) => {
      const translated = german[key] === undefined ? '' : JSON.stringify(german[key]);
      return texts(message)
        .flatMap((text) => text.split(/\{\w+\}/))
        .map((fragment) => fragment.trim())
        .filter((fragment) => fragment.length >= 5 && !translated.includes(fragment))
        .map((fragment) => ({ key, fragment }));
    });
}

/** The English fragments found in `text` (with the names, titles and files people gave taken out of it first). */
export function englishIn(
  text: string,
  fragments: Array<{ key: string; fragment: string }>,
  theirs: string[] = [],
): string[] {
  const shown = theirs.reduce((rest, name) => rest.split(name).join(' '), text);
  return fragments
    .filter(({ fragment }) => shown.includes(fragment))
    .map(({ key, fragment }) => `"${fragment}" (${key})`);
}
