// What `init` writes for every template and tool type, as a checked-in record: each project path
// with the SHA-256 of its bytes (test/fixtures/template-output.json). test/init/template-output.test.ts
// compares what init writes today with this record, so a change to templates/ that reaches a
// project by accident fails there, and a deliberate one is recorded by running this script and
// committing the result.
//
//   node scripts/build.mjs --if-changed && node scripts/template-snapshot.mjs
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SNAPSHOT_FILE = 'test/fixtures/template-output.json';

/**
 * Fixed answers that reach every placeholder and every kind of escaping (HTML, Markdown, JSON).
 * The manifest's description stays one sentence so validate has nothing to say about it.
 */
export const SNAPSHOT_ANSWERS = {
  name: `Tom's "Best" <Estimator> & *Co*`,
  shortName: `Tom's <b>`,
  description: 'Prices kitchens for <script>alert(1)</script> & [co] with `care`.',
  version: '1.2.3',
};

/** A registry spec, so no tarball of the running copy is packed into the projects. */
const TOOLKIT = { spec: '^9.8.7', kind: 'registry', running: false };

/**
 * pipeline.d.ts is the bridge's declarations as this build compiled them (src/bridge/types.ts),
 * not a template file: its place is recorded, and that it ends with readBridgeTypes' text.
 */
export const BRIDGE_TYPES_FILE = 'pipeline.d.ts';
export const BRIDGE_TYPES_MARK = 'the bridge types of this build';

/**
 * Runs `initProject` (the real one with its readBridgeTypes, passed in: the built one from this script, the sources from the
 * test) for every template and tool type into a temporary folder, and returns
 * `{ "<template>-<type>": { "<path>": "<sha256>" } }`.
 */
export async function templateOutputs({ initProject, readBridgeTypes, templateNames, toolTypes }) {
  const bridgeTypes = await readBridgeTypes();
  const outputs = {};
  const scratch = mkdtempSync(path.join(tmpdir(), 'template-output-'));
  try {
    for (const template of templateNames) {
      for (const type of toolTypes) {
        const directory = path.join(scratch, `${template}-${type}`, 'my-tool');
        const result = await initProject({ directory, answers: { type, ...SNAPSHOT_ANSWERS }, template, toolkit: TOOLKIT });
        const files = {};
        for (const written of result.written) {
          const bytes = readFileSync(path.join(directory, ...written.split('/')));
          const fromBuild = written === BRIDGE_TYPES_FILE && bytes.toString('utf8').endsWith(bridgeTypes);
          files[written] = fromBuild ? BRIDGE_TYPES_MARK : createHash('sha256').update(bytes).digest('hex');
        }
        outputs[`${template}-${type}`] = files;
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return outputs;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const init = await import(new URL('../dist/core/init/index.js', import.meta.url).href).catch(() => {
    console.error('dist/ is missing: run `node scripts/build.mjs --if-changed` first.');
    process.exit(2);
  });
  const outputs = await templateOutputs({ initProject: init.initProject, readBridgeTypes: init.readBridgeTypes, templateNames: init.TEMPLATE_NAMES, toolTypes: init.TOOL_TYPES });
  writeFileSync(path.join(root, SNAPSHOT_FILE), `${JSON.stringify(outputs, null, 2)}\n`);
  console.log(`wrote ${SNAPSHOT_FILE}: ${Object.keys(outputs).length} templates`);
}
