import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { initProject, readBridgeTypes, TEMPLATE_NAMES, TOOL_TYPES } from '../../src/core/init/index.js';
import { SNAPSHOT_FILE, templateOutputs } from '../../scripts/template-snapshot.mjs';

/**
 * What init writes for every template, byte for byte, against the record in
 * test/fixtures/template-output.json. The templates are composed from layers shared between them;
 * moving a file between layers must leave every project as it was. A deliberate change to what a
 * project gets is recorded with `node scripts/template-snapshot.mjs` (after a build).
 */
describe('what init writes for each template', () => {
  it('is the recorded set of files, with the recorded bytes', async () => {
    const recorded = JSON.parse(readFileSync(new URL(`../../${SNAPSHOT_FILE}`, import.meta.url), 'utf8')) as Record<string, Record<string, string>>;
    const outputs = (await templateOutputs({ initProject, readBridgeTypes, templateNames: TEMPLATE_NAMES, toolTypes: TOOL_TYPES })) as Record<string, Record<string, string>>;
    expect(Object.keys(outputs).sort()).toEqual(Object.keys(recorded).sort());
    for (const [template, files] of Object.entries(recorded)) expect({ template, files: outputs[template] }).toEqual({ template, files });
  }, 60_000);


  it('come from layers that each store a file once, every layer used by some template', () => {
    const templates = new URL('../../templates/', import.meta.url);
    const byHash = new Map<string, string[]>();
    for (const entry of readdirSync(templates, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || entry.name === 'templates.json') continue;
      const file = `${entry.parentPath}/${entry.name}`;
      const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
      byHash.set(hash, [...(byHash.get(hash) ?? []), file.slice(templates.pathname.length)]);
    }
    expect([...byHash.values()].filter((files) => files.length > 1)).toEqual([]);

    const layout = JSON.parse(readFileSync(new URL('templates.json', templates), 'utf8')) as Record<string, unknown>;
    const used = new Set(Object.values(layout).flatMap((layers) => (Array.isArray(layers) ? layers.map((use: string | { layer: string }) => (typeof use === 'string' ? use : use.layer)) : [])));
    const folders = readdirSync(templates, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.filter((folder) => !used.has(folder))).toEqual([]);
    expect([...used].filter((layer) => !folders.includes(layer))).toEqual([]);
  });
});
