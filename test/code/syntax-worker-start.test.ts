import { describe, expect, it } from 'vitest';
import type { BundleEntry } from '../../src/core/shipment/source.js';
import { workerLoad, workerSent } from '../../src/core/code/js-syntax.js';
import { bundleFacts } from '../../src/core/code/js-scanner.js';
import { checkScript, WORKER_THRESHOLD } from '../../src/core/code/script-syntax.js';

/*
 * When js-syntax's worker starts. The choice is kept for the rest of the process, so the two cases
 * run in order in this file: a bundle with little script first, then one past WORKER_THRESHOLD.
 */

const entry = (path: string, declaredSize: number): BundleEntry => ({ path, kind: 'file', declaredSize, readable: true });
const script = Buffer.from('var a = 1;\nfunction f() { return a; }\n');

describe("js-syntax's worker", () => {
  it('is not started for a bundle with little script: its parses wait for the reading thread', async () => {
    const facts = bundleFacts([entry('index.html', 500), entry('app.js', WORKER_THRESHOLD)]);
    expect(facts.scriptBytes).toBe(WORKER_THRESHOLD);
    const findings = checkScript(Buffer.from(script), { file: 'app.js', facts }, 'app.js');
    expect(workerSent()).toBe(0);
    expect(workerLoad()).toBe(0);
    expect(await findings()).toEqual([]);
  });

  it('starts with the first parse of a bundle with more script than that, whatever waits', async () => {
    // Only .js files count; the page's size does not.
    const facts = bundleFacts([entry('index.html', 10 * WORKER_THRESHOLD), entry('a.js', WORKER_THRESHOLD), entry('lib/b.js', 1)]);
    expect(facts.scriptBytes).toBe(WORKER_THRESHOLD + 1);
    // The worker runs beside this thread and may answer before the next line: what is asserted is
    // that the parse was given to it, not that it is still running.
    const findings = checkScript(Buffer.from(script), { file: 'a.js', facts }, 'a.js');
    expect(workerSent()).toBe(1);
    expect(await findings()).toEqual([]);
    const broken = checkScript(Buffer.from('var = ;'), { file: 'lib/b.js', facts }, 'lib/b.js');
    expect(workerSent()).toBe(2);
    expect((await broken()).map((finding) => [finding.ruleId, finding.file, finding.line])).toEqual([['js-syntax', 'lib/b.js', 1]]);
  });
});
