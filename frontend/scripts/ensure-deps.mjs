#!/usr/bin/env node
// Runs `npm ci` only when node_modules does not match package-lock.json (Maven calls this on every
// build). The stamp records a hash of the lock file, the Node version and the platform; `npm ci`
// deletes node_modules first, so a failed or interrupted install leaves no stamp and the next build
// installs again. Force a fresh install with FRONTEND_FORCE_CI=1 (or by deleting node_modules).
// An argument names another npm project to ensure instead (relative to the working directory), e.g.
// `node ../frontend/scripts/ensure-deps.mjs .` from api-contract/.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] ? resolve(process.argv[2]) : join(dirname(fileURLToPath(import.meta.url)), '..');
const name = basename(root);
const lockFile = join(root, 'package-lock.json');
const modules = join(root, 'node_modules');
const stampFile = join(modules, '.changeflow-install-stamp');

if (!existsSync(lockFile)) {
  console.error(`${name}: package-lock.json is missing; run \`npm install\` in ${name}/ and commit the lock file.`);
  process.exit(1);
}

const expected = createHash('sha256')
  .update(readFileSync(lockFile))
  .update(`\0${process.version}\0${process.platform}\0${process.arch}`)
  .digest('hex');

const current = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : null;
const upToDate = current === expected && existsSync(join(modules, '.package-lock.json'));

if (upToDate && process.env.FRONTEND_FORCE_CI !== '1') {
  console.log(`${name}: node_modules is up to date with package-lock.json; skipping npm ci`);
  process.exit(0);
}

console.log(`${name}: running npm ci`);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], {
  cwd: root,
  stdio: 'inherit',
  shell: process.platform === 'win32',
});
if (result.error) {
  console.error(`${name}: could not run npm: ${result.error.message}`);
  process.exit(1);
}
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(stampFile, `${expected}\n`);
