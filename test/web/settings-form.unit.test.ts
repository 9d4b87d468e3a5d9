// The settings form (src/web/settings-form.ts) and the pages that post it (views/instructor-settings.eta with
// views/check-settings.eta; the Asset Processor's attach page, which fills in the fields it does not show): every
// field the form reads is an input of the page, and every input of the page is read. A setting the page had no input
// for would be saved as its default whatever the instructor chose.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fieldsNotShown } from '../../src/web/asset-processor-attach.js';
import { SETTINGS_FORM_FIELDS } from '../../src/web/settings-form.js';

const inputsOf = (view: string) =>
  [...readFileSync(new URL(`../../views/${view}.eta`, import.meta.url), 'utf8').matchAll(/\bname="(\w+)"/g)].map(
    (match) => match[1]!,
  );

test("the settings page has an input for every field the form reads, and the form reads every one of the page's", () => {
  const onPage = new Set([...inputsOf('instructor-settings'), ...inputsOf('check-settings')]);
  onPage.delete('ltik');
  assert.deepEqual([...onPage].sort(), [...SETTINGS_FORM_FIELDS].sort());
});

test("the attach page's inputs and the fields it fills in are the form's fields, each once", () => {
  const onPage = [...inputsOf('asset-processor-attach'), ...inputsOf('check-settings')].filter(
    (name) => name !== 'ltik' && name !== 'title',
  );
  const posted = [...new Set(onPage), ...Object.keys(fieldsNotShown())];
  assert.deepEqual([...posted].sort(), [...SETTINGS_FORM_FIELDS].sort());
});
