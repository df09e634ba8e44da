import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/core/validate.js';
import { goodFiles, writeFolder } from '../helpers/bundles.js';

/*
 * Bundler output, as a tool built with React ships it: one file holding React, ReactDOM and the
 * author's components, every function an arrow or an expression assigned to a variable. esbuild
 * (react and react-dom are devDependencies for this) builds a small tool here, minified and not; a
 * mistake inside a component's effect must be found where it stands in the built file, and the
 * component's own `confirm` helper must not be taken for the browser's.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

const SOURCE = `
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

const askInPage = (message) => document.querySelector('dialog').showModal() ?? message;

const Estimate = () => {
  const [lines, setLines] = useState([]);
  useEffect(() => {
    if (lines.length === 0) return;
    const bridge = window.pipeline;
    bridge.quotes.addLine(lines).then(() => bridge.settings.set('last', lines.length));
  }, [lines]);
  useEffect(() => {
    const confirm = askInPage;
    if (confirm('Start again?')) setLines([]);
  }, []);
  return <button onClick={() => setLines([{ qty: 1, unitPrice: 10, taxRate: 0.15 }])}>Add</button>;
};

createRoot(document.getElementById('root')).render(<Estimate />);
`;

async function bundle(minify: boolean): Promise<string> {
  const result = await build({
    stdin: { contents: SOURCE, loader: 'jsx', resolveDir: root, sourcefile: 'estimate.jsx' },
    bundle: true,
    minify,
    write: false,
    format: 'iife',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** Line and column (1-based) of a string index in `text`. */
function position(text: string, index: number): string {
  const before = text.slice(0, index).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

describe('a React tool built by esbuild', () => {
  it.each([false, true])('finds the mistake in the effect where it stands (minified: %s)', async (minify) => {
    const code = await bundle(minify);
    const page = '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><div id="root"></div><script src="app.js"></script></body></html>';
    const report = await validateBundle(writeFolder({ ...goodFiles(), 'index.html': page, 'app.js': code }));

    // The call through the effect's variable (renamed by the minifier), at that variable.
    const call = /([\w$]+)\.quotes\.addLine\(/.exec(code)!;
    const bridge = report.problems.filter((p) => p.ruleId.startsWith('bridge-'));
    expect(bridge.map((p) => `${p.ruleId} ${p.file}:${p.line}:${p.column}`)).toEqual([`bridge-unknown-method app.js:${position(code, call.index)}`]);
    expect(bridge[0]!.data).toEqual({ method: 'quotes.addLine', suggestion: 'quotes.addLines' });

    // ReactDOM's own innerHTML writes are what else there is, each found where it is written;
    // the component's confirm is its own. The author's bundle is not library code.
    const others = report.problems.filter((p) => !p.ruleId.startsWith('bridge-'));
    expect(others.length).toBeGreaterThan(0);
    const lines = code.split('\n');
    for (const problem of others) {
      expect(problem.ruleId).toBe('unsafe-html');
      expect(lines[problem.line! - 1]!.slice(problem.column! - 1)).toMatch(/^innerHTML\s*=/);
    }
    expect(report.problems.filter((p) => p.library)).toEqual([]);
  }, 60_000);
});
