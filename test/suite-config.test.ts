import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from '../vitest.config.js';
import { setCertificatesAside, withCertificates } from './helpers/certificates.js';

/*
 * Most test files share a module graph with the files run before them on the same worker; those
 * that mock a module or stub a global must not, or the mock leaks into later files (and a module
 * already loaded ignores it).
 */

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function testFiles(): string[] {
  return readdirSync(path.join(REPO, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `test/${file.split(path.sep).join('/')}`);
}

describe('the suite configuration', () => {
  it('runs every file that mocks a module or stubs a global in a module graph of its own', () => {
    const mocking = testFiles().filter((file) => /\bvi\.(?:mock|doMock|stubGlobal|stubEnv|resetModules)\(/.test(readFileSync(path.join(REPO, file), 'utf8')));
    expect(mocking.length).toBeGreaterThan(0);
    expect(ISOLATED).toEqual(expect.arrayContaining(mocking));
  });

  it('names only files that exist', () => {
    for (const file of ISOLATED) expect(existsSync(path.join(REPO, file)), file).toBe(true);
  });

  it('sets NODE_EXTRA_CA_CERTS aside for the run, and gives it back where npm runs as the user runs it', () => {
    const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/extra.pem', PATH: '/usr/bin' };
    setCertificatesAside(env);
    expect(env['NODE_EXTRA_CA_CERTS']).toBeUndefined();
    expect(withCertificates(env)).toEqual({ NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/extra.pem', PATH: '/usr/bin' });
    // Set aside twice (the configuration is loaded again by a file that imports it): still kept.
    setCertificatesAside(env);
    expect(withCertificates(env)).toEqual({ NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/extra.pem', PATH: '/usr/bin' });
    const without: NodeJS.ProcessEnv = { PATH: '/usr/bin' };
    setCertificatesAside(without);
    expect(without).toEqual({ PATH: '/usr/bin' });
    expect(withCertificates(without)).toEqual({ PATH: '/usr/bin' });
  });
});
