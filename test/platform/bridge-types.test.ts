import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * src/bridge/types.ts becomes pipeline.d.ts in scaffolded tools, which use it from plain
 * JavaScript. So its declaration output must stand alone and check a JS tool without errors.
 */

const source = path.resolve(import.meta.dirname, '../../src/bridge/types.ts');
const strict: ts.CompilerOptions = { strict: true, noUncheckedIndexedAccess: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [], skipLibCheck: false };

function diagnosticsOf(program: ts.Program): string[] {
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('the bridge types as pipeline.d.ts', () => {
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'pipeline-types-'));
    const program = ts.createProgram([source], { ...strict, declaration: true, emitDeclarationOnly: true, outDir: folder });
    expect(diagnosticsOf(program)).toEqual([]);
    program.emit();
    await writeFile(path.join(folder, 'pipeline.d.ts'), await readFile(path.join(folder, 'types.d.ts'), 'utf8'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('imports nothing', async () => {
    const text = await readFile(path.join(folder, 'pipeline.d.ts'), 'utf8');
    expect(text).not.toMatch(/\bimport\b|\brequire\(/);
  });

  it('checks a plain JavaScript tool that references it', async () => {
    const tool = path.join(folder, 'tool.js');
    await writeFile(
      tool,
      `/// <reference path="./pipeline.d.ts" />
/** @type {import('./pipeline').BridgeProductDto[]} */
const products = [];
/** @param {import('./pipeline').BridgeAddLineDto[]} lines */
async function send(lines) {
  const bridge = window.pipeline;
  if (!bridge) return;
  const page = await bridge.products.list({ pageSize: 500 });
  products.push(...page.items);
  if (bridge.quotes.addSections) await bridge.quotes.addSections([{ name: 'Scope', notes: 'Supply only' }]);
  await bridge.quotes.addLines(lines, { sections: [{ name: 'Extras', summaryOnly: true }] });
  const result = await bridge.quotes.create({ upsertByEmail: false, lines: [{ qty: 1, unitPrice: 2, taxRate: 0.15 }] });
  /** @type {string | null} */
  const theme = await bridge.settings.get('theme');
  return [result.ref, theme, bridge.version];
}
send([{ qty: 2, unitPrice: 10, taxRate: 15, lineType: 'jobcost', section: 'Extras' }]).catch((/** @type {import('./pipeline').BridgeError} */ e) => e.code);
`,
    );
    const program = ts.createProgram([tool], { ...strict, allowJs: true, checkJs: true, noEmit: true });
    expect(diagnosticsOf(program)).toEqual([]);
  });

  it('catches a wrong line type in JavaScript', async () => {
    const tool = path.join(folder, 'wrong.js');
    await writeFile(tool, `/// <reference path="./pipeline.d.ts" />\nwindow.pipeline?.quotes.addLines([{ qty: 1, unitPrice: 1, taxRate: 0, lineType: 'service' }]);\n`);
    const program = ts.createProgram([tool], { ...strict, allowJs: true, checkJs: true, noEmit: true });
    // TS2322: the value is not assignable to BridgeLineType.
    expect(ts.getPreEmitDiagnostics(program).map((d) => d.code)).toEqual([2322]);
  });
});
