import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The floors of src/, as they run: a module imports from its own area or from a floor below it,
 * never from one above nor from a neighbour on its own floor. Inside core, the plan of what ships
 * (core/shipment) sits below both the reader (core/bundle) and the packer (core/pack), and the
 * reader never reaches into the packer. docs/development.md draws the same picture.
 */

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** From the top floor down; the areas of one floor do not import one another. */
const FLOORS: readonly (readonly string[])[] = [
  ['cli', 'vite', 'testing', 'eslint', 'index.ts', 'cli-loader.cts'],
  ['dev'],
  ['platform', 'sdk', 'report-page'],
  ['core'],
  ['bridge'],
];

/** Inside core: who may never import whom. */
const CORE_BELOW: ReadonlyArray<{ area: string; never: readonly string[] }> = [
  { area: 'core/shipment', never: ['core/bundle', 'core/pack'] },
  { area: 'core/bundle', never: ['core/pack'] },
];

/**
 * The one import that climbs today: the code checks read the bridge's method table from the
 * platform model (platform/sdk-versions.ts is data with no imports of its own above core).
 */
const ALLOWED: ReadonlySet<string> = new Set(['core/code/bridge-surface.ts -> platform/sdk-versions.ts']);

interface Import {
  /** Both slash-separated and relative to src/. */
  from: string;
  to: string;
}

/** The floor area of a file: `core/<folder>` inside core, else its top-level folder or file. */
function areaOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'core') return parts.length > 2 ? `core/${parts[1]}` : 'core';
  return parts[0]!;
}

function floorOf(area: string): number {
  return FLOORS.findIndex((floor) => floor.includes(area.split('/')[0]!));
}

/** Every import that breaks the floors, as `from -> to (why)`. */
function layerViolations(imports: readonly Import[]): string[] {
  const found: string[] = [];
  for (const { from, to } of imports) {
    if (ALLOWED.has(`${from} -> ${to}`)) continue;
    const [a, b] = [areaOf(from), areaOf(to)];
    if (a === b) continue;
    const [floorA, floorB] = [floorOf(a), floorOf(b)];
    if (floorA < 0 || floorB < 0) found.push(`${from} -> ${to} (not on any floor: add it to FLOORS)`);
    else if (floorB < floorA) found.push(`${from} -> ${to} (a floor above)`);
    else if (floorA === floorB && a.split('/')[0] !== b.split('/')[0]) found.push(`${from} -> ${to} (a neighbour on the same floor)`);
    else if (CORE_BELOW.some((rule) => rule.area === a && rule.never.includes(b))) found.push(`${from} -> ${to} (${b} is above ${a})`);
  }
  return found;
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The relative imports of every source file, resolved to files of src/ (`.js` read as `.ts`). */
function importsOfSources(): Import[] {
  const imports: Import[] = [];
  for (const entry of readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(?:ts|cts|mts|tsx)$/.test(entry.name)) continue;
    const file = path.relative(SRC, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    for (const match of readFileSync(path.join(SRC, file), 'utf8').matchAll(SPECIFIER)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]!)).replace(/\.(c|m)?js$/, '.$1ts');
      if (!target.startsWith('..')) imports.push({ from: file, to: target });
    }
  }
  return imports;
}

describe('the floors of src/', () => {
  const imports = importsOfSources();

  it('are kept by every import', () => {
    expect(imports.length).toBeGreaterThan(500);
    expect(layerViolations(imports)).toEqual([]);
  });

  it('put the plan of what ships below the reader and the packer, which both use it', () => {
    const areasUsing = (area: string) => new Set(imports.filter((i) => areaOf(i.to) === area).map((i) => areaOf(i.from)));
    // `core` is validate.ts, at core's root.
    expect([...areasUsing('core/shipment')]).toEqual(expect.arrayContaining(['core/bundle', 'core/pack', 'core', 'dev', 'cli']));
  });

  it('are broken by an import that climbs, or by the reader or the plan reaching into the packer', () => {
    expect(
      layerViolations([
        { from: 'core/bundle/open-bundle.ts', to: 'core/pack/shipment.ts' },
        { from: 'core/shipment/shipment.ts', to: 'core/pack/destination.ts' },
        { from: 'core/shipment/shipment.ts', to: 'core/bundle/source.ts' },
        { from: 'core/pack/pack-folder.ts', to: 'core/shipment/shipment.ts' },
        { from: 'core/bundle/open-bundle.ts', to: 'core/shipment/shipment.ts' },
        { from: 'platform/host.ts', to: 'dev/server.ts' },
        { from: 'core/rules/x.ts', to: 'platform/model.ts' },
        { from: 'dev/server.ts', to: 'cli/main.ts' },
        { from: 'cli/main.ts', to: 'vite/index.ts' },
        { from: 'cli/main.ts', to: 'dev/server.ts' },
        { from: 'cli/main.ts', to: 'elsewhere/thing.ts' },
      ]),
    ).toEqual([
      'core/bundle/open-bundle.ts -> core/pack/shipment.ts (core/pack is above core/bundle)',
      'core/shipment/shipment.ts -> core/pack/destination.ts (core/pack is above core/shipment)',
      'core/shipment/shipment.ts -> core/bundle/source.ts (core/bundle is above core/shipment)',
      'platform/host.ts -> dev/server.ts (a floor above)',
      'core/rules/x.ts -> platform/model.ts (a floor above)',
      'dev/server.ts -> cli/main.ts (a floor above)',
      'cli/main.ts -> vite/index.ts (a neighbour on the same floor)',
      'cli/main.ts -> elsewhere/thing.ts (not on any floor: add it to FLOORS)',
    ]);
  });
});
