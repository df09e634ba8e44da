import { describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/core/validate.js';
import { goodFiles, goodManifest, writeFolder, writeZip } from '../helpers/bundles.js';
import { packageOf } from '../../src/core/code/library.js';

/*
 * Browser storage inside a `try` whose `catch` takes the failure cannot break the tool: in library
 * code it is no problem, in the author's code a warning that what is stored may vanish. A library
 * that tests an API so guards its other uses of that API; one that does not is named, with what the
 * author can do about it.
 */

const PAGE = (scripts: string[]) =>
  `<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body>${scripts.map((s) => `<script src="${s}"></script>`).join('')}</body></html>`;

async function storage(files: Record<string, string>, zip = false) {
  const all = { ...goodFiles(goodManifest), 'index.html': PAGE(Object.keys(files)), ...files };
  // A folder leaves node_modules/ out of the bundle, as pack does; a zip holds what it holds.
  const bundle = zip ? writeZip(Object.entries(all).map(([name, data]) => ({ name, data }))) : writeFolder(all);
  const report = await validateBundle(bundle);
  return report.problems.filter((p) => p.ruleId === 'browser-storage');
}

const PROBE = [
  'var ok = null;',
  'function available() {',
  '  try { window.localStorage.setItem("t", "1"); window.localStorage.removeItem("t"); ok = true; } catch (e) { ok = false; }',
  '  return ok;',
  '}',
  'function read(key) { return available() ? window.localStorage.getItem(key) : null; }',
  'function cookie() { return document.cookie; }',
].join('\n');

describe('browser-storage guarded by try/catch', () => {
  it('in author code stays a warning, saying what may still go wrong', async () => {
    const found = await storage({ 'app.js': 'let saved = null;\ntry { saved = localStorage.getItem("rate"); } catch { saved = null; }\n' });
    expect(found.map((p) => [p.line, p.data?.guarded])).toEqual([[2, true]]);
    expect(found[0]!.message).toContain('is used inside try/catch, so the sandbox\'s refusal cannot break the tool');
  });

  it('is not guarded by a try with no catch, nor inside a function written in the try block', async () => {
    const found = await storage({
      'app.js': ['try { localStorage.clear(); } finally { done(); }', 'try { later(() => { sessionStorage.clear(); }); button.onclick = function () { indexedDB.open("x"); }; } catch (e) {}', ''].join('\n'),
    });
    expect(found.map((p) => [p.data?.api, p.data?.guarded])).toEqual([
      ['localStorage', undefined],
      ['sessionStorage', undefined],
      ['indexedDB', undefined],
    ]);
  });

  it('in library code is no problem, and a library that tests an API so guards its other uses of it', async () => {
    expect(await storage({ 'vendor/detector.js': PROBE.split('\n').slice(0, 6).join('\n') })).toEqual([]);
    // document.cookie is never tested here: it stays.
    const found = await storage({ 'vendor/detector.js': PROBE });
    expect(found.map((p) => [p.data?.api, p.library])).toEqual([['document.cookie', true]]);
  });

  it('names an unguarded library package and what to do about it', async () => {
    expect(packageOf('node_modules/pinia-plugin-persistedstate/dist/index.js')).toBe('pinia-plugin-persistedstate');
    expect(packageOf('../../node_modules/.pnpm/x@1/node_modules/@scope/name/index.js')).toBe('@scope/name');
    expect(packageOf('src/node_modules.js')).toBeUndefined();
    const found = await storage({ 'node_modules/pinia-plugin-persistedstate/index.js': 'function make(p) { return { storage: p.storage ?? window.localStorage }; }\n' }, true);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ library: true, package: 'pinia-plugin-persistedstate', data: { api: 'localStorage', package: 'pinia-plugin-persistedstate' } });
    expect(found[0]!.message).toContain("Do not turn on pinia-plugin-persistedstate's persistence; if the tool needs what it keeps, give it a storage adapter over pipeline.settings.get");
    expect(found[0]!.message).not.toContain('tool preferences');
  });
});
