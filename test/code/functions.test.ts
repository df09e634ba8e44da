import { describe, expect, it } from 'vitest';
import { at, scanJs } from './helpers.js';

/*
 * Every function body is a scope, whatever kind of function it is and wherever it stands: a
 * declaration's value (`const f = () => {…}`), an object's method, a callback passed to a call.
 * Locals declared there are seen (`const p = window.pipeline` makes `p.quotes…` a bridge call) and
 * hide the globals of their name (`const alert = …`), inside that body only.
 */

const MISTAKE = 'p.quotes.addLine([]);';
const BRIDGE = 'const p = window.pipeline;';
const LOCAL_ALERT = "const alert = (m) => m; alert('x');";

/** Function bodies as tools and bundlers write them; `{}` marks where the body's statements go. */
const BODIES: Record<string, string> = {
  'an arrow assigned to a const': 'const f = () => { {} };',
  'an async arrow assigned to a let': 'let f = async (a, b) => { {} };',
  'a function expression assigned to a var': 'var f = function () { {} };',
  'a named function expression': 'const f = function run() { {} };',
  'the second declarator of a var': 'var a = 1, f = function () { {} };',
  'an object-literal method in an initializer': 'const ui = { show() { {} } };',
  'an object-literal arrow property': 'const ui = { show: () => { {} } };',
  'a getter in an object literal': 'const ui = { get total() { {} } };',
  'a callback in an initializer': 'const rows = items.map(function (x) { {} });',
  'an arrow callback in an initializer': 'const rows = items.map((x) => { {} });',
  'a callback passed to a call': 'items.forEach(function (x) { {} });',
  "a component's effect": 'const App = () => { useEffect(() => { {} }, []); return null; };',
  'an effect in a function component': 'function App() { useEffect(() => { {} }); }',
  'a class field arrow': 'class A { run = () => { {} }; }',
  'a body three functions deep': 'const a = () => { const b = function () { const c = () => { {} }; }; };',
  'an IIFE assigned to a const': 'const api = (() => { {} return 1; })();',
  'a default export': 'export default () => { {} };',
  'an exported const': 'export const f = () => { {} };',
};

describe('a local set to the bridge is seen in every kind of function body', () => {
  it.each(Object.entries(BODIES))('%s', (_name, body) => {
    const code = body.replace('{}', `${BRIDGE} ${MISTAKE}`);
    const found = scanJs(code);
    expect(found.map((h) => h.ruleId)).toEqual(['bridge-unknown-method']);
    expect(found[0]!.column).toBe(code.indexOf(MISTAKE) + 1);
  });
});

describe('a local hides the global of its name in every kind of function body', () => {
  it.each(Object.entries(BODIES))('%s', (_name, body) => {
    expect(scanJs(body.replace('{}', LOCAL_ALERT))).toEqual([]);
  });

  it.each(Object.entries(BODIES))('%s, and only there', (_name, body) => {
    const code = `${body.replace('{}', LOCAL_ALERT)}\nalert('global');\n`;
    expect(at(scanJs(code))).toEqual(['dialog-call@2:1']);
  });
});

describe('what a function body declares stays in it', () => {
  it('an alias declared in a function is not an alias after it', () => {
    const code = ['const f = () => {', '  const p = window.pipeline;', '};', 'p.quotes.addLine([]);'].join('\n');
    expect(scanJs(code)).toEqual([]);
  });

  it('a local of the same name hides an outer alias in its function only', () => {
    const code = [
      'const p = window.pipeline;',
      'function g() {',
      '  const p = createPipeline();',
      '  p.quotes.addLine([]);',
      '}',
      'const h = (p) => { p.quotes.addLine([]); };',
      'p.quotes.addLine([]);',
    ].join('\n');
    expect(at(scanJs(code))).toEqual(['bridge-unknown-method@7:1']);
  });

  it('statements without semicolons end at the line break, inside and after the function', () => {
    const code = ['const f = () => {', '  let alert = notify', '  alert(1)', '  const p = window.pipeline', '  p.quotes.addLine([])', '}', 'alert(2)'].join('\n');
    expect(at(scanJs(code))).toEqual(['bridge-unknown-method@5:3', 'dialog-call@7:1']);
  });

  it('reads a declaration that follows another without a semicolon', () => {
    expect(at(scanJs('let a\nconst alert = notify\nalert(1)\n'))).toEqual([]);
  });

  it('gives the same findings for any split into chunks', () => {
    const code = Object.values(BODIES)
      .map((body) => body.replace('{}', `${BRIDGE} ${MISTAKE} ${LOCAL_ALERT}`))
      .join('\n');
    const whole = at(scanJs(code));
    expect(whole).toHaveLength(Object.keys(BODIES).length);
    for (const chunks of [[1], [3, 7], [64]]) expect(at(scanJs(code, { chunks }))).toEqual(whole);
  });
});
