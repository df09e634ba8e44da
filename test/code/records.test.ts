import { describe, expect, it } from 'vitest';
import { at, scanJs } from './helpers.js';

/** `ruleId@line:column` of the `n`th (from 0) occurrence of `needle` in `code`. */
function where(ruleId: string, code: string, needle: string, n = 0): string {
  let index = -1;
  for (let k = 0; k <= n; k++) index = code.indexOf(needle, index + 1);
  const before = code.slice(0, index).split('\n');
  return `${ruleId}@${before.length}:${before[before.length - 1]!.length + 1}`;
}

/*
 * Add-line records written with shorthand properties (`{ productId: p.id, qty, unitPrice }`) are
 * records like any other. A shorthand's value is that of a `const` set to a plain literal in scope;
 * anything else (a `let`, a computed value, a parameter of the same name) is not known and not
 * reported.
 */

const ADD = 'pipeline.quotes.addLines';

describe('shorthand properties in add-line records', () => {
  it('reads a shorthand qty from a literal const, inside quotes.addLines', () => {
    const code = `const qty = 0;\nconst unitPrice = 12.5;\n${ADD}([{ productId: p.id, qty, unitPrice, taxRate: 15 }]);\n`;
    expect(at(scanJs(code))).toEqual([where('bridge-deprecated', code, 'productId'), where('bridge-literal-range', code, 'qty,', 0)]);
    expect(scanJs(code)[1]!.data).toMatchObject({ method: 'quotes.addLines', field: 'qty', value: 0 });
  });

  it('reads shorthands in quotes.create against its own limits', () => {
    const code = 'const qty = 20000;\nconst taxRate = 15;\npipeline.quotes.create({ lines: [{ qty, unitPrice: 1, taxRate }] });\n';
    const found = scanJs(code);
    expect(at(found)).toEqual([where('bridge-literal-range', code, 'qty,'), where('bridge-literal-range', code, 'taxRate }')]);
    expect(found.map((h) => [h.data.field, h.data.value])).toEqual([
      ['qty', 20000],
      ['taxRate', 15],
    ]);
  });

  it('takes a negative literal and a string', () => {
    const code = `const unitPrice = -4;\nconst lineType = 'cost';\n${ADD}([{ qty: 1, unitPrice, taxRate: 0, lineType }]);\n`;
    expect(at(scanJs(code))).toEqual([where('bridge-literal-range', code, 'unitPrice,'), where('bridge-deprecated', code, 'lineType }')]);
  });

  it('marks a record outside any call by its shorthand qty and unitPrice', () => {
    const code = 'const discountPercent = 150;\nconst line = { productId: id, qty, unitPrice, discountPercent };\nconst other = { discountPercent };\n';
    expect(at(scanJs(code))).toEqual([where('bridge-deprecated', code, 'productId'), where('bridge-literal-range', code, 'discountPercent }')]);
  });

  it('takes the innermost const, and one declared in the same function', () => {
    const code = [
      'const qty = 5;',
      'function build() {',
      '  const qty = 0;',
      `  return ${ADD}([{ qty, unitPrice: 1, taxRate: 0 }]);`,
      '}',
      `${ADD}([{ qty, unitPrice: 1, taxRate: 0 }]);`,
    ].join('\n');
    expect(at(scanJs(code))).toEqual([where('bridge-literal-range', code, 'qty,', 0)]);
  });

  it.each([
    ['a let', `let qty = 0;\n${ADD}([{ qty, unitPrice: 1, taxRate: 0 }]);`],
    ['a computed const', `const qty = count - 1;\n${ADD}([{ qty, unitPrice: 1, taxRate: 0 }]);`],
    ['a const followed by more of its expression', `const qty = 0 + extra;\n${ADD}([{ qty, unitPrice: 1, taxRate: 0 }]);`],
    ['a const of another function', `function a() { const qty = 0; }\n${ADD}([{ qty, unitPrice: 1, taxRate: 0 }]);`],
    ['a parameter of the same name', `const qty = 0;\nfunction add(qty) { ${ADD}([{ qty, unitPrice: 1, taxRate: 0 }]); }`],
    ['an arrow parameter of the same name', `const qty = 0;\nconst add = (qty) => ${ADD}([{ qty, unitPrice: 1, taxRate: 0 }]);`],
    ['a non-literal const in between', `const qty = 0;\n{ const qty = read(); ${ADD}([{ qty, unitPrice: 1, taxRate: 0 }]); }`],
    ['no const at all', `${ADD}([{ qty, unitPrice: 1, taxRate: 0 }]);`],
    ['a key named like a const, with its own value', `const qty = 0;\n${ADD}([{ qty: 3, unitPrice: 1, taxRate: 0 }]);`],
  ])('leaves alone the value of %s', (_name, code) => {
    expect(scanJs(code)).toEqual([]);
  });

  it.each([
    ['a parameter pattern', 'function row({ productId, qty, unitPrice }) { return qty * unitPrice; }'],
    ['an arrow parameter pattern', 'const row = ({ productId, qty, unitPrice }) => qty * unitPrice;'],
    ['a pattern with defaults', 'function row({ productId, qty, unitPrice } = {}) { return qty; }'],
    ['a pattern among other parameters', 'const row = async (i, { productId, qty, unitPrice }) => qty;'],
    ['a destructuring declaration', 'const { productId, qty, unitPrice } = line;'],
  ])('does not take %s for a record', (_name, code) => {
    expect(scanJs(code)).toEqual([]);
  });

  it('still reads a record passed to a call of an unknown function', () => {
    const code = 'render({ productId, qty, unitPrice });\nrender(1, ({ productId, qty, unitPrice }));\n';
    expect(at(scanJs(code))).toEqual([where('bridge-deprecated', code, 'productId'), where('bridge-deprecated', code, 'productId', 1)]);
  });

  it('gives the same findings for any split into chunks', () => {
    const code = `const qty = 0;\nconst discountPercent = 101;\n${ADD}([{ productId, qty, unitPrice }]);\nconst r = { qty, unitPrice, discountPercent };\n`;
    const whole = at(scanJs(code));
    expect(whole).toEqual([where('bridge-deprecated', code, 'productId'), where('bridge-literal-range', code, 'qty,', 0), where('bridge-literal-range', code, 'discountPercent }')]);
    for (const chunks of [[1], [2, 5], [11]]) expect(at(scanJs(code, { chunks }))).toEqual(whole);
  });
});
