import { describe, expect, it } from 'vitest';
import { ScopedValues } from '../../src/core/code/scoped-values.js';
import { at, scanJs } from './helpers.js';

describe('names scoped to the frame that declares them', () => {
  it('gives back what an inner frame hid, also after the same frame declares a name again', () => {
    const values = new ScopedValues<string, number>();
    values.set('p', 1, 0);
    values.set('p', 2, 2);
    values.set('p', 3, 2);
    values.set('q', undefined, 3);
    expect(values.get('p')).toBe(3);
    values.close(2);
    expect(values.get('p')).toBe(1);
    values.set('p', undefined, 1);
    expect(values.get('p')).toBeUndefined();
    values.close(1);
    expect(values.get('p')).toBe(1);
  });

  it("keeps what came before a mark when what follows it declares the same name in the same frame", () => {
    const values = new ScopedValues<string, number>();
    values.set('p', 1, 0);
    const mark = values.mark();
    values.set('p', 2, 0);
    values.set('p', 3, 0);
    expect(values.get('p')).toBe(3);
    values.rewind(mark);
    expect(values.get('p')).toBe(1);
  });

  it('stays correct over a file that declares the same names a great many times', () => {
    const code = `${'var p = window.pipeline; const qty = 0;\n'.repeat(50_000)}p.quotes.update();\npipeline.quotes.addLines([{ qty, unitPrice: 1, taxRate: 0 }]);\n`;
    expect(at(scanJs(code))).toEqual(['bridge-unknown-method@50001:1', 'bridge-literal-range@50002:29']);
  });
});
