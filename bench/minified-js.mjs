// "Minified-looking" JavaScript for the benchmark bundles: valid code built from a small grammar,
// with mangled local names, long property names and string literals, on one long line.
// It has to look like real minified output to three readers: the JavaScript parser (it must
// compile), deflate (it should shrink about 3.5-4x, like real bundles), and our own code checks
// (it must not trip them, or `validate max.zip` would not exit 0). For the last reason the vocabulary
// stays clear of anything a sandboxed-tool check might flag: no eval, no HTML sinks, no storage,
// no dialogs, no network calls, no bridge methods.

const WORDS = [
  'quote', 'line', 'item', 'product', 'price', 'total', 'tax', 'rate', 'customer', 'job', 'task',
  'section', 'group', 'key', 'value', 'state', 'render', 'update', 'list', 'page', 'size', 'count',
  'index', 'node', 'event', 'handler', 'config', 'option', 'format', 'parse', 'label', 'name', 'code',
  'status', 'error', 'result', 'request', 'response', 'cache', 'store', 'view', 'model', 'panel',
  'button', 'input', 'field', 'form', 'row', 'column', 'table', 'cell', 'header', 'footer', 'body',
  'width', 'height', 'offset', 'scroll', 'margin', 'color', 'theme', 'style', 'listener', 'emit',
  'dispatch', 'action', 'reducer', 'selector', 'query', 'filter', 'sort', 'merge', 'assign', 'clone',
  'equal', 'hash', 'token', 'uid', 'ref', 'parent', 'child', 'sibling', 'next', 'prev', 'first',
  'last', 'start', 'end', 'begin', 'finish', 'ready', 'load', 'save', 'send', 'receive', 'toggle',
  'show', 'hide', 'visible', 'enabled', 'disabled', 'active', 'focus', 'blur', 'click', 'change',
  'submit', 'reset', 'discount', 'amount', 'currency', 'locale', 'culture', 'date', 'time',
  'duration', 'minutes', 'hours', 'context', 'tenant', 'user', 'role', 'schedule', 'estimate',
  'measure', 'unit', 'qty', 'sku', 'catalog', 'stock', 'supplier', 'ledger', 'account', 'summary',
  'detail', 'preview', 'editor', 'draft', 'sent', 'accepted', 'expired', 'template', 'asset',
  'fault', 'reminder', 'priority', 'assignee', 'delivery', 'address', 'email', 'phone', 'region',
  'zone', 'layer', 'frame', 'track', 'queue', 'batch', 'chunk', 'buffer', 'stream', 'reader',
  'writer', 'module', 'plugin', 'hook', 'effect', 'memo', 'signal', 'observer', 'subscribe',
  'notify', 'resolve', 'reject', 'pending', 'timeout', 'interval', 'delay', 'retry', 'limit',
  'threshold', 'ratio', 'scale', 'round', 'precision', 'digits', 'prefix', 'suffix', 'separator',
  'pattern', 'match', 'replace', 'split', 'join', 'trim', 'pad', 'slice', 'chunk', 'flatten',
];

// Built-in names that real bundles use constantly; they make the text repetitive in the same way.
const BUILTIN_MEMBERS = [
  'length', 'push', 'map', 'forEach', 'filter', 'indexOf', 'slice', 'call', 'apply', 'prototype',
  'then', 'catch', 'keys', 'join', 'split', 'replace', 'toString', 'createElement', 'appendChild',
  'setAttribute', 'getAttribute', 'addEventListener', 'removeEventListener', 'querySelector',
  'textContent', 'classList', 'add', 'remove', 'contains', 'dataset', 'preventDefault', 'target',
  'value', 'concat', 'reduce', 'some', 'every', 'find', 'findIndex', 'includes', 'splice', 'shift',
  'unshift', 'pop', 'hasOwnProperty', 'defineProperty', 'freeze', 'create', 'toFixed', 'trim',
];
const BUILTIN_CALLS = [
  'Math.max', 'Math.min', 'Math.round', 'Math.floor', 'Math.abs', 'Object.keys', 'Object.assign',
  'Array.isArray', 'JSON.stringify', 'JSON.parse', 'Number', 'String', 'Boolean', 'parseInt',
  'parseFloat', 'isNaN', 'Promise.resolve', 'Promise.all', 'Object.freeze', 'Array.from',
];
const CONSTRUCTORS = ['Map', 'Set', 'Date', 'Error', 'TypeError', 'RangeError', 'WeakMap', 'Promise'];
const REGEXES = [
  '/^[a-z][a-z0-9_-]*$/i', '/\\s+/g', '/^\\d+(\\.\\d+)?$/', '/[A-Z]/g', '/^-?\\d*\\.?\\d+$/',
  '/[\\u0300-\\u036f]/g', '/^#?([a-f\\d]{2})([a-f\\d]{2})([a-f\\d]{2})$/i', '/\\{(\\w+)\\}/g',
  '/^(\\d{4})-(\\d{2})-(\\d{2})/', '/[^\\w.-]+/g',
];
const OPERATORS = [
  '+', '+', '+', '-', '*', '/', '%', '===', '===', '!==', '==', '!=', '<', '>', '<=', '>=', '&&',
  '&&', '||', '||', '&', '|', '<<', '>>>', '??',
];
// Share of expressions that repeat a recent one; tuned so deflate shrinks the text about 3.7x.
const REUSE_RATE = 0.5;
const COMPOUND_ASSIGN = ['=', '=', '=', '=', '+=', '-=', '|=', '||='];
// Words a mangled name must never spell.
const RESERVED = new Set([
  'do', 'if', 'in', 'for', 'let', 'new', 'try', 'var', 'case', 'else', 'enum', 'eval', 'null',
  'this', 'true', 'void', 'with', 'break', 'catch', 'class', 'const', 'false', 'super', 'throw',
  'while', 'yield', 'async', 'await', 'delete', 'export', 'import', 'public', 'return', 'static',
  'switch', 'typeof', 'default', 'extends', 'finally', 'package', 'private', 'continue',
  'debugger', 'function', 'arguments', 'interface', 'protected', 'implements', 'instanceof',
]);

// Terser hands out names in frequency order: e, t, n, r, ... then longer ones.
const FIRST_CHARS = 'etnriosaculdhfpgmvybwkxjqzETNRIOSACULDHFPGMVYBWKXJQZ_$';
const NEXT_CHARS = 'etnriosaculdhfpgmvybwkxjqz0123456789ETNRIOSACULDHFPGMVYBWKXJQZ_$';

function spellName(index) {
  let name = FIRST_CHARS[index % FIRST_CHARS.length];
  let rest = Math.floor(index / FIRST_CHARS.length);
  while (rest > 0) {
    rest -= 1;
    name += NEXT_CHARS[rest % NEXT_CHARS.length];
    rest = Math.floor(rest / NEXT_CHARS.length);
  }
  return name;
}

/** The mangled names in order, skipping reserved words; the list grows on demand. */
const MANGLED = [];
let nextSpelling = 0;
function mangledName(index) {
  while (MANGLED.length <= index) {
    const name = spellName(nextSpelling++);
    if (!RESERVED.has(name)) MANGLED.push(name);
  }
  return MANGLED[index];
}
// Locals index the first few dozen names directly.
mangledName(64);

function camel(words) {
  return words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
}

/**
 * Generates one file. `random` is a forked stream for this file; `targetBytes` is approximate,
 * the file closes its wrapper at the first statement boundary past it.
 */
export function generateMinifiedJs(random, targetBytes, { banner = 'bundle', reuseRate = REUSE_RATE } = {}) {
  // Each file has its own small set of long property names, as one library would.
  const properties = [];
  for (let i = 0; i < 60; i++) {
    const n = random.chance(0.35) ? 1 : random.chance(0.7) ? 2 : 3;
    const words = [];
    for (let j = 0; j < n; j++) words.push(random.pickSkewed(WORDS));
    properties.push(camel(words));
  }
  const members = [...BUILTIN_MEMBERS, ...properties];
  // Top-level names are handed out in order so that no two declarations clash.
  let nextTopLevel = 60;
  const topLevel = [];
  const declareTopLevel = () => {
    const name = mangledName(nextTopLevel++);
    topLevel.push(name);
    return name;
  };

  const out = [];
  let size = 0;
  const emit = (text) => {
    out.push(text);
    size += text.length;
  };

  // --- expressions -------------------------------------------------------------------------
  // `scope` is the list of local names visible here; `depth` bounds nesting.

  const number = () => {
    const r = random.float();
    if (r < 0.7) return String(random.int(10));
    if (r < 0.8) return String(random.between(10, 999));
    if (r < 0.9) return `.${random.between(1, 99)}`;
    if (r < 0.95) return `${random.between(1, 9)}e${random.between(2, 4)}`;
    return `0x${random.between(16, 65535).toString(16)}`;
  };

  const string = () => {
    const r = random.float();
    if (r < 0.35) return `"${random.pickSkewed(WORDS)}"`;
    if (r < 0.6) return `"${random.pickSkewed(properties)}"`;
    if (r < 0.8) {
      // BEM-ish class names, as UI code is full of them.
      return `"pt-${random.pickSkewed(WORDS)}__${random.pickSkewed(WORDS)}${random.chance(0.4) ? `--${random.pick(WORDS)}` : ''}"`;
    }
    const words = [];
    const n = random.between(2, 7);
    for (let i = 0; i < n; i++) words.push(random.pickSkewed(WORDS));
    const sentence = words.join(' ');
    return `"${sentence[0].toUpperCase()}${sentence.slice(1)}${random.chance(0.3) ? '.' : ''}"`;
  };

  const local = (scope) => (scope.length > 0 && random.chance(0.85) ? random.pickSkewed(scope) : random.pick(topLevel.length > 0 ? topLevel : ['window']));

  const memberChain = (scope) => {
    let text = random.chance(0.1) ? 'this' : local(scope);
    const n = random.chance(0.5) ? 1 : random.between(1, 3);
    for (let i = 0; i < n; i++) text += `.${random.pickSkewed(members)}`;
    return text;
  };

  const args = (scope, depth, max) => {
    const n = random.int(max + 1);
    const parts = [];
    for (let i = 0; i < n; i++) parts.push(expression(scope, depth + 1));
    return parts.join(',');
  };

  const freshParams = (count) => {
    // Parameter names must be distinct (strict mode); minifiers start again at e, t, n, ...
    const start = random.int(3);
    return MANGLED.slice(start, start + count);
  };

  const functionExpression = (scope, depth) => {
    const params = freshParams(random.int(3));
    const inner = [...params, ...scope.slice(0, 6)];
    if (random.chance(0.5)) {
      const head = params.length === 1 ? params[0] : `(${params.join(',')})`;
      if (random.chance(0.6)) {
        const value = expression(inner, depth + 1);
        // An object literal after => would be read as a block.
        return `${head}=>${value.startsWith('{') ? `(${value})` : value}`;
      }
      return `${head}=>{${block(inner, depth + 1, 3)}}`;
    }
    return `function(${params.join(',')}){${block(inner, depth + 1, 4)}}`;
  };

  const objectLiteral = (scope, depth) => {
    const n = random.between(1, 5);
    const parts = [];
    for (let i = 0; i < n; i++) {
      const key = random.pickSkewed(properties);
      parts.push(`${key}:${depth > 3 ? primary(scope) : expression(scope, depth + 1)}`);
    }
    return `{${parts.join(',')}}`;
  };

  function primary(scope) {
    const r = random.float();
    if (r < 0.42) return local(scope);
    if (r < 0.6) return number();
    if (r < 0.82) return string();
    if (r < 0.9) return random.pick(['!0', '!1', 'void 0', 'null', '""', '[]', '{}', 'this']);
    return memberChain(scope);
  }

  function callExpression(scope, depth) {
    const r = random.float();
    if (r < 0.5) return `${memberChain(scope)}(${args(scope, depth, 3)})`;
    if (r < 0.7) return `${local(scope)}(${args(scope, depth, 3)})`;
    if (r < 0.85) return `${random.pick(BUILTIN_CALLS)}(${args(scope, depth, 2)})`;
    if (r < 0.93) return `${local(scope)}.${random.pick(['replace', 'split', 'match', 'test'])}(${random.pick(REGEXES)}${random.chance(0.5) ? `,${string()}` : ''})`;
    return `new ${random.pick(CONSTRUCTORS)}(${args(scope, depth, 2)})`;
  }

  // Operands of operators are wrapped in parentheses unless they are simple, which keeps every
  // combination valid (no `a+b=>c`, no `a//re/`) without a precedence table.
  function operand(scope, depth) {
    const r = random.float();
    if (r < 0.5 || depth > 3) return primary(scope);
    if (r < 0.8) return callExpression(scope, depth);
    if (r < 0.9) return `${local(scope)}[${primary(scope)}]`;
    return `(${expression(scope, depth + 1)})`;
  }

  // Real code repeats itself: the same helper calls and conditions come back again and again.
  // Reusing recent expressions gives deflate the same kind of matches it finds in real bundles.
  const recent = [];
  function expression(scope, depth) {
    if (recent.length >= 100 && random.chance(reuseRate)) return random.pick(recent);
    const text = freshExpression(scope, depth);
    if (text.length < 80) {
      if (recent.length < 200) recent.push(text);
      else recent[random.int(recent.length)] = text;
    }
    return text;
  }

  function freshExpression(scope, depth) {
    if (depth > 4) return primary(scope);
    const r = random.float();
    if (r < 0.22) return primary(scope);
    if (r < 0.45) return callExpression(scope, depth);
    if (r < 0.67) return `${operand(scope, depth)}${random.pick(OPERATORS)}${operand(scope, depth)}`;
    if (r < 0.75) return `${operand(scope, depth)}?${operand(scope, depth)}:${operand(scope, depth)}`;
    if (r < 0.82) return functionExpression(scope, depth);
    if (r < 0.9) return objectLiteral(scope, depth);
    if (r < 0.95) return `[${args(scope, depth, 4)}]`;
    if (r < 0.98) return `"${random.pick(['function', 'string', 'number', 'object', 'undefined'])}"==typeof ${local(scope)}`;
    return `\`${random.pickSkewed(WORDS)}-\${${local(scope)}}px\``;
  }

  // --- statements --------------------------------------------------------------------------

  function statement(scope, depth, declared) {
    const r = random.float();
    if (r < 0.2 || depth > 3) {
      // Assignments and calls: the bulk of real code. Never starts with `{` or `function`.
      if (random.chance(0.5)) return `${memberChain(scope)}${random.pick(COMPOUND_ASSIGN)}${expression(scope, depth + 1)}`;
      return callExpression(scope, depth);
    }
    if (r < 0.38) {
      // `var` only: it may repeat a name, so it can never clash the way `let` would.
      const n = random.between(1, 3);
      const parts = [];
      for (let i = 0; i < n; i++) {
        const name = MANGLED[random.int(12)];
        declared.add(name);
        parts.push(`${name}=${expression(scope, depth + 1)}`);
      }
      return `var ${parts.join(',')}`;
    }
    if (r < 0.55) {
      const test = expression(scope, depth + 1);
      if (random.chance(0.4)) return `if(${test})return ${expression(scope, depth + 1)}`;
      const otherwise = random.chance(0.5) ? `else{${block(scope, depth + 1, 3)}}` : '';
      return `if(${test}){${block(scope, depth + 1, 3)}}${otherwise}`;
    }
    if (r < 0.65) {
      const i = MANGLED[random.between(12, 20)];
      const n = MANGLED[random.between(21, 28)];
      const list = local(scope);
      declared.add(i).add(n);
      return `for(var ${i}=0,${n}=${list}.length;${i}<${n};${i}++){${block([i, n, ...scope], depth + 1, 3)}}`;
    }
    if (r < 0.72) {
      const cases = [];
      const n = random.between(2, 4);
      for (let k = 0; k < n; k++) cases.push(`case ${string()}:${block(scope, depth + 1, 2)};break`);
      return `switch(${local(scope)}){${cases.join(';')};default:${block(scope, depth + 1, 1)}}`;
    }
    if (r < 0.78) {
      // The catch body declares nothing, so the catch parameter can never be redeclared.
      return `try{${block(scope, depth + 1, 3)}}catch(${MANGLED[random.int(4)]}){${callExpression(scope, depth + 1)}}`;
    }
    return `${memberChain(scope)}=${expression(scope, depth + 1)}`;
  }

  function block(scope, depth, maxStatements) {
    const n = random.between(1, maxStatements);
    const declared = new Set();
    const parts = [];
    for (let i = 0; i < n; i++) {
      parts.push(statement([...declared, ...scope], depth, declared));
    }
    if (random.chance(0.4)) parts.push(`return ${expression([...declared, ...scope], depth + 1)}`);
    return parts.join(';');
  }

  function topLevelDeclaration() {
    const r = random.float();
    if (r < 0.55) {
      const name = declareTopLevel();
      const params = freshParams(random.int(4));
      return `function ${name}(${params.join(',')}){${block(params, 0, 6)}}`;
    }
    if (r < 0.75) {
      const name = declareTopLevel();
      return `const ${name}=${objectLiteral([], 1)};`;
    }
    if (r < 0.88) {
      const name = declareTopLevel();
      const methods = [];
      const n = random.between(1, 4);
      for (let i = 0; i < n; i++) {
        const params = freshParams(random.int(3));
        methods.push(`${random.pickSkewed(properties)}(${params.join(',')}){${block(params, 1, 4)}}`);
      }
      const first = freshParams(1);
      return `class ${name}{constructor(${first[0]}){this.${random.pick(properties)}=${first[0]}}${methods.join('')}}`;
    }
    const name = declareTopLevel();
    return `var ${name}=${expression([], 1)};`;
  }

  // --- file ---------------------------------------------------------------------------------
  emit(`/*! ${banner} v${random.between(1, 9)}.${random.int(20)}.${random.int(30)} | (c) 2024 Bench Tools | MIT License */\n`);
  emit('!function(){"use strict";');
  // A few names first, so that `local` has something to refer to from the start.
  for (let i = 0; i < 3; i++) emit(`var ${declareTopLevel()}=${objectLiteral([], 2)};`);
  while (size < targetBytes - 40) {
    const declaration = topLevelDeclaration();
    emit(declaration.endsWith(';') || declaration.endsWith('}') ? declaration : `${declaration};`);
  }
  emit(`window.${random.pick(properties)}=${random.pick(topLevel)}}();\n`);
  return out.join('');
}

// Documentation blocks as library sources carry them: the same few shapes over and over, so they
// compress far better than the code between them.
const DOC_BLOCKS = [
  (n) => `/**\n * ${n}: reads the current state and returns a new value.\n *\n * @param {object} options - how the value is computed\n * @param {number} [options.page=1] - the page to read, from 1\n * @param {number} [options.pageSize=50] - how many rows a page holds\n * @returns {Promise<object>} the rows of that page and their total count\n */\n`,
  (n) => `/**\n * ${n}: merges the given lines into the open quote.\n *\n * The lines are checked first; when one of them is invalid, nothing is merged\n * and the promise rejects with the reasons.\n *\n * @param {Array<object>} lines - the lines to add\n * @returns {Promise<void>}\n */\n`,
  (n) => `/**\n * ${n}: formats an amount of money for display in the current culture.\n *\n * @param {number} amount - the amount, in the tenant's currency\n * @param {string} [cultureCode] - a culture code such as en-NZ\n * @returns {string} the formatted amount\n */\n`,
  (n) => `// ${n}: keep this in step with the settings panel; see the notes above.\n`,
  (n) => `/**\n * ${n}\n *\n * @deprecated use the newer method instead; kept for tools of earlier versions.\n * @see https://example.invalid/docs/${n}\n */\n`,
];

/**
 * JavaScript as an unminified library ships it: the same code as generateMinifiedJs, with a line
 * break between top-level declarations and documentation comments making up about 45% of the
 * bytes. It deflates about 5.8x, where minified code gives about 3.7x, which is what lets a
 * bundle of 49 MB that is nearly all JavaScript stay under the 10 MB zip limit, as real ones do.
 */
export function generateDocumentedJs(random, targetBytes, { banner = 'bundle' } = {}) {
  const code = generateMinifiedJs(random, Math.round(targetBytes * 0.55), { banner });
  const boundary = /;(?=(?:var|const|class) )/g;
  const points = (code.match(boundary) ?? []).length || 1;
  const comments = targetBytes - code.length;
  let point = 0;
  let written = 0;
  let next = 0;
  return code.replace(boundary, () => {
    // Comments are shared out so that the file ends close to its target, not past it.
    const due = (comments * ++point) / points;
    let text = ';\n\n';
    for (;;) {
      const block = DOC_BLOCKS[random.int(DOC_BLOCKS.length)](`member${(next++).toString(36)}`);
      if (written + block.length > due) break;
      text += block;
      written += block.length;
    }
    return text;
  });
}

/**
 * One chunk of a bundler's minified ES module output, on two lines: the first imports a few names
 * from other chunks (`import{a as Q0,b as Q1}from"./chunk-012.js";`), the second holds the code
 * and ends with the chunk's own exports. The code is generateMinifiedJs's with more of its
 * expressions repeated, so that 41 MB of it deflates under the 10 MB zip limit (about 4.3x).
 * Its `import` and `export` make every chunk one the code checks tokenize, as real chunks are.
 * Returns the file's text and, for the generator's own check, the same code as a classic script.
 */
export function generateChunkJs(random, targetBytes, { banner, importsFrom = [] } = {}) {
  const exportNames = ['a', 'b', 'c', 'd'];
  const imports = importsFrom.map((path, i) => {
    const names = exportNames.slice(0, 1 + random.int(exportNames.length)).map((name, j) => `${name} as Q${i}${j}`);
    return `import{${names.join(',')}}from"./${path}";`;
  });
  const minified = generateMinifiedJs(random, targetBytes, { banner, reuseRate: 0.85 });
  // The licence banner goes: bundlers keep one only for a library's own chunk.
  const code = minified.slice(minified.indexOf('\n') + 1).trimEnd();
  const locals = exportNames.map((name, i) => `function X${i}(e){return e}`).join('');
  const exported = `export{${exportNames.map((name, i) => `X${i} as ${name}`).join(',')}};`;
  return { text: `${imports.join('')}\n${code}${locals}${exported}\n`, classic: `${code}${locals}` };
}
