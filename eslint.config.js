// The project's lint (`npm run lint`, and `npm test` before the suite): typescript-eslint's recommended rules without
// type information (fast), and the import rules of the parts (docs/architecture.md, "Layout of src/"): a folder of
// src/ may import only the parts listed below it, ltijs is imported in one folder, and no import circle.
import Module from 'node:module';
import js from '@eslint/js';
import globals from 'globals';

// typescript-eslint parses with TypeScript's JavaScript API, which TypeScript 7 (the compiler of `npm run typecheck`)
// no longer has, and declares typescript <6.1 as its peer: its packages read TypeScript 6 (the dev dependency
// typescript-for-lint) instead. Only the syntax is read, and TypeScript 6 reads all of the project's.
const require = Module.createRequire(import.meta.url);
const typescriptForLint = require.resolve('typescript-for-lint');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (
    request === 'typescript' &&
    /[\\/]node_modules[\\/](@typescript-eslint[\\/][^\\/]+|typescript-eslint|ts-api-utils)[\\/]/.test(
      parent?.filename ?? '',
    )
  )
    return typescriptForLint;
  return resolveFilename.call(this, request, parent, ...rest);
};
const { default: tseslint } = await import('typescript-eslint');
const { importX } = await import('eslint-plugin-import-x');
const { createTypeScriptImportResolver } = await import('eslint-import-resolver-typescript');

// The parts of src/, top to bottom, and what each may import (docs/architecture.md, "Layout of src/"). The
// composition root (the entry point main.ts, the start part start/ with the worker's side, the settings part config/,
// cli/) may import everything; the shared leaves (the pages' words, type declarations, what the tool tells of itself
// in observe/, and the files of config/ named below) may be imported by every part and import only each other.
const ROOT = ['main.ts', 'cli', 'start', 'config'];
// The shared leaves kept in a folder of the root: secrets, the loopback names, networks, the data folder and "did you
// mean", which settings read. Any other file of the folder is the root's.
const LEAVES_IN_ROOT = {
  config: ['secrets.ts', 'loopback.ts', 'cidr.ts', 'data-dir.ts', 'near-miss.ts'],
};
const SHARED = [
  'i18n',
  'types',
  'observe',
  ...Object.entries(LEAVES_IN_ROOT).flatMap(([folder, files]) => files.map((file) => `${folder}/${file}`)),
];
const DOMAIN_BELOW = ['accounts', 'lti', 'checker', 'jobs', 'db'];
const MAY_IMPORT = {
  web: ['assetprocessor', 'assignments', 'submissions', 'grades', 'reports', ...DOMAIN_BELOW],
  assetprocessor: ['assignments', 'submissions', 'grades', 'reports', ...DOMAIN_BELOW],
  // The domain's parts use each other in one direction: submissions read their assignment; grades and reports read
  // both.
  grades: ['assignments', 'submissions', ...DOMAIN_BELOW],
  reports: ['assignments', 'submissions', ...DOMAIN_BELOW],
  submissions: ['assignments', ...DOMAIN_BELOW],
  assignments: DOMAIN_BELOW,
  accounts: ['checker', 'db'],
  lti: ['db'],
  checker: [],
  jobs: ['db'],
  db: [],
  // "Nothing of ours but shared types": the service's API types (checker/types.ts), which the sandbox answers in.
  sandbox: [],
  devplatform: [],
};
const PARTS = Object.keys(MAY_IMPORT);
const EXCEPT = { sandbox: { checker: ['./types.ts'] } };

/** Zones that keep `target` from importing the root and `parts`, but for the shared leaves kept in the root. */
const outsideRoot = (target, parts, message) => [
  {
    target,
    from: [...ROOT.filter((name) => !LEAVES_IN_ROOT[name]), ...parts].map((name) => `./src/${name}`),
    message,
  },
  ...Object.entries(LEAVES_IN_ROOT).map(([folder, leaves]) => ({
    target,
    from: `./src/${folder}`,
    except: leaves.map((leaf) => `./${leaf}`),
    message,
  })),
];

const partZones = [
  ...PARTS.flatMap((part) =>
    outsideRoot(
      `./src/${part}`,
      PARTS.filter((other) => other !== part && !MAY_IMPORT[part].includes(other) && !EXCEPT[part]?.[other]),
      `src/${part}/ may import only ${MAY_IMPORT[part].join(', ') || 'nothing of ours'} and the shared leaves: ` +
        'see "Layout of src/" in docs/architecture.md.',
    ),
  ),
  ...Object.entries(EXCEPT).flatMap(([part, allowed]) =>
    Object.entries(allowed).map(([other, except]) => ({
      target: `./src/${part}`,
      from: `./src/${other}`,
      except,
      message: `src/${part}/ may import only the shared types of src/${other}/ (${except.join(', ')}).`,
    })),
  ),
  ...SHARED.flatMap((leaf) =>
    outsideRoot(
      `./src/${leaf}`,
      PARTS,
      'A shared leaf of src/ imports only other shared leaves: every part may import it.',
    ),
  ),
];

const LTIJS_ONLY_HERE = 'src/lti/ltijs/**';
const ltijsOutside = {
  paths: [
    {
      name: 'ltijs',
      message: `ltijs is imported only in ${LTIJS_ONLY_HERE}: the rest of the tool uses the tool's own LTI types.`,
    },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'test-artifacts/', '.cache/', 'docs/', 'test/fixtures/**/*.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: partZones }],
      'no-restricted-imports': ['error', ltijsOutside],
      // Unused names are the type checker's (noUnusedLocals, noUnusedParameters in tsconfig.json): one home.
      '@typescript-eslint/no-unused-vars': 'off',
      'no-unused-vars': 'off',
      // The tool reads magic bytes and terminal colour codes on purpose: control characters in a pattern are meant.
      'no-control-regex': 'off',
      // A test declares what a handler set up before it reads it later (`let server; app.get(..., () => server...)`).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  // What runs in the browser: the pages' scripts and the probe the layout tests put into a page.
  { files: ['public/**/*.js', 'test/support/layout-probe.js'], languageOptions: { globals: { ...globals.browser } } },
  { files: [LTIJS_ONLY_HERE], rules: { 'no-restricted-imports': 'off' } },
);
