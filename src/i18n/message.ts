// One message of a catalogue: a sentence, or its plural forms.

/** Plural forms by Intl.PluralRules category; `other` is always there. */
export type PluralMessage = { readonly other: string } & {
  readonly [category in Exclude<Intl.LDMLPluralRule, 'other'>]?: string;
};
export type Message = string | PluralMessage;
