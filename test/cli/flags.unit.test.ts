// The CLI's refusals name the flag and say what it takes in words (never the schema's own message), list every
// wrong flag at once, and name the flag an unknown one was probably meant to be.
import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import { test } from 'node:test';
import { registrationInput } from '../../src/lti/registrations.js';
import { flagProblems, unknownFlagSentence } from '../../src/cli/flags.js';

const WORDS = {
  name: { flag: '--name', takes: 'the name administrators see' },
  issuer: { flag: '--issuer', takes: "the LMS's issuer" },
  clientId: { flag: '--client-id', takes: 'the client id the LMS gave the tool' },
  deploymentId: { flag: '--deployment-id', takes: 'the deployment id the LMS gave the tool' },
  authUrl: { flag: '--auth-url', takes: 'a full https address such as https://moodle.example.edu/mod/lti/auth.php' },
  tokenUrl: { flag: '--token-url', takes: 'a full https address such as https://moodle.example.edu/mod/lti/token.php' },
  jwksUrl: { flag: '--jwks-url', takes: 'a full https address such as https://moodle.example.edu/mod/lti/certs.php' },
  authorizationServer: { flag: '--authorization-server', takes: 'a full https address' },
  productFamily: { flag: '--product', takes: "the LMS's product family code" },
};

test('every wrong flag of a registration, each named with what it takes and what it was given', () => {
  const given = {
    name: 'Moodle',
    issuer: 'https://moodle.example.edu',
    clientId: 'abc',
    authUrl: 'https://moodle.example.edu/mod/lti/auth.php',
    tokenUrl: 'https://moodle.example.edu/mod/lti/token.php',
    jwksUrl: 'moodle.example.edu/mod/lti/certs.php',
  };
  const parsed = registrationInput.safeParse(given);
  assert.equal(parsed.success, false);
  assert.deepEqual(flagProblems(parsed.error!.issues, given, WORDS), [
    '--deployment-id is required: the deployment id the LMS gave the tool.',
    '--jwks-url must be a full https address such as https://moodle.example.edu/mod/lti/certs.php; it is moodle.example.edu/mod/lti/certs.php.',
  ]);
});

test('an unknown flag is named, with the one it was probably meant to be', () => {
  const options = { 'jwks-url': { type: 'string' }, 'client-id': { type: 'string' } } as const;
  const refusal = (args: string[]) => {
    try {
      parseArgs({ args, options, strict: true });
    } catch (error) {
      return unknownFlagSentence(error as Error, Object.keys(options));
    }
    return null;
  };
  assert.equal(refusal(['--jwks-ur', 'x']), '--jwks-ur is not a flag of this command: did you mean --jwks-url?');
  assert.equal(refusal(['--client_id', 'x']), '--client_id is not a flag of this command: did you mean --client-id?');
  assert.equal(refusal(['--colour', 'x']), '--colour is not a flag of this command.');
});
