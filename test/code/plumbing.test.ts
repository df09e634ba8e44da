import { describe, expect, it } from 'vitest';
import { openBundle } from '../../src/core/bundle/open-bundle.js';
import type { BundleEntry, BundleSource } from '../../src/core/shipment/source.js';
import { validateBundle } from '../../src/core/validate.js';
import { goodEntries, goodFiles, goodManifest, writeFolder, writeZip } from '../helpers/bundles.js';

/** Wraps a source to record every read. */
async function recording(path: string): Promise<{ source: BundleSource; reads: string[] }> {
  const inner = await openBundle(path);
  const reads: string[] = [];
  const source: BundleSource = {
    kind: inner.kind,
    location: inner.location,
    archiveSize: inner.archiveSize,
    entries: inner.entries,
    findings: inner.findings,
    read: (entry: BundleEntry, limit: number, sink: (chunk: Buffer) => void) => {
      reads.push(entry.path);
      return inner.read(entry, limit, sink);
    },
    close: () => inner.close(),
  };
  return { source, reads };
}

describe('the content pass', () => {
  it('reads each file of a zip exactly once, scanners included', async () => {
    const zip = writeZip([...goodEntries(), { name: 'data/a.json', data: '{}' }, { name: 'img/a.png', data: 'png' }]);
    const { source, reads } = await recording(zip);
    try {
      await validateBundle(source);
    } finally {
      await source.close();
    }
    expect([...reads].sort()).toEqual(['app.js', 'data/a.json', 'img/a.png', 'index.html', 'manifest.json', 'styles.css']);
  });

  it('reads a folder\'s files only when a scanner wants them', async () => {
    const folder = writeFolder({ ...goodFiles(), 'img/a.png': 'png', 'img/b.svg': '<svg/>', 'fonts/c.woff2': 'x' });
    const { source, reads } = await recording(folder);
    await validateBundle(source);
    expect([...reads].sort()).toEqual(['app.js', 'index.html', 'manifest.json', 'styles.css']);
  });

  it('gives scanners the manifest, read before any other file', async () => {
    // In the zip, app.js comes before manifest.json; the tool type must still be known for it.
    const entries = goodEntries({ ...goodManifest, type: 'standalone' });
    entries.unshift({ name: 'a.js', data: 'window.pipeline.quotes.addLines([]);' });
    const report = await validateBundle(writeZip(entries));
    expect(report.problems.map((p) => p.ruleId)).toEqual(['bridge-tool-type']);
  });

  it('does not scan what the byte budget left unread, and says nothing false about a cut file', async () => {
    const big = `[${'1,'.repeat(40_000)}1]`;
    const report = await validateBundle(writeZip([...goodEntries(), { name: 'data/big.json', data: big }]), { budget: 50_000 });
    expect(report.problems.map((p) => p.ruleId)).not.toContain('json-syntax');
  });

  it('checks other .json files but leaves manifest.json to the manifest rules', async () => {
    const report = await validateBundle(writeFolder({ ...goodFiles(), 'manifest.json': '{"name": "x",}', 'data/x.json': '{"a":}' }));
    const ids = report.problems.map((p) => `${p.ruleId} ${p.file}`);
    expect(ids).toContain('manifest-syntax manifest.json');
    expect(ids).toContain('json-syntax data/x.json');
    expect(ids).not.toContain('json-syntax manifest.json');
  });

  it('does not scan unreadable entries', async () => {
    const report = await validateBundle(writeZip([...goodEntries(), { name: 'x.js', data: 'alert(1)', flags: 1 }]));
    const ids = report.problems.map((p) => p.ruleId);
    expect(ids).toContain('archive-encrypted');
    expect(ids).not.toContain('dialog-call');
  });
});
