#!/usr/bin/env node
// Generates the web app's API types (frontend/src/api/schema.ts) from the checked-in OpenAPI document
// (docs/openapi.json, itself checked against the running code by OpenApiContractTest). With --check it
// only compares: a stale file fails the build with the command that regenerates it.
import openapiTS, { astToString } from 'openapi-typescript';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const document = join(root, 'docs', 'openapi.json');
const target = join(root, 'frontend', 'src', 'api', 'schema.ts');

const banner =
  '// Generated from docs/openapi.json by openapi-typescript (cd api-contract && npm run types). Do not edit:\n' +
  '// the document is generated from the code (docs/api.md, "The OpenAPI document").\n\n';
const ast = await openapiTS(JSON.parse(readFileSync(document, 'utf8')), { alphabetize: true });
const generated = banner + astToString(ast);

if (process.argv.includes('--check')) {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (current !== generated) {
    console.error('frontend/src/api/schema.ts is not what docs/openapi.json generates.\n' +
      'Regenerate it and commit: cd api-contract && npm run types');
    process.exit(1);
  }
  console.log('frontend/src/api/schema.ts matches docs/openapi.json');
} else {
  writeFileSync(target, generated);
  console.log('wrote frontend/src/api/schema.ts');
}
