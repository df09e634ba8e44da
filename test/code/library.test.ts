import { describe, expect, it } from 'vitest';
import { jsScanner } from '../../src/core/code/js-scanner.js';
import { isLibraryHead, isLibraryPath } from '../../src/core/code/library.js';
import { validateBundle } from '../../src/core/validate.js';
import { goodFiles, writeFolder, writeZip } from '../helpers/bundles.js';
import { scanWith } from './helpers.js';

/*
 * Library code: a file shipped as someone else wrote it. The core marks the code findings in such
 * a file (Problem.library); the text output sums up their warnings (test/code/cli.test.ts).
 */

describe('which files are library code', () => {
  it.each([
    ['vendor/chart.js', true],
    ['assets/Vendors/quill.js', true],
    ['third_party/a/b.js', true],
    ['third-party/x.css', true],
    ['bower_components/x.js', true],
    ['web_modules/preact.js', true],
    ['js/chart.min.js', true],
    ['quill.snow.MIN.css', true],
    ['app.js', false],
    ['lib/helpers.js', false],
    ['src/lib/format.js', false],
    ['vendor.js', false],
    ['js/vendor-setup.js', false],
    ['admin.js', false],
  ])('%s by its path: %s', (path, library) => {
    expect(isLibraryPath(path)).toBe(library);
  });

  it.each([
    ['a /*! banner', '/*! Quill Editor v2.0.3 | BSD 3-Clause */\n!function(){}', true],
    ['a banner after a byte-order mark and space', '\ufeff\n  /*!\n * Chart.js v4.4.1\n */\n(function(){})', true],
    ['an @license comment', '/**\n * @license React\n * react-dom.production.js\n */\n"use strict";', true],
    ['an @preserve comment', '/* @preserve Leaflet 1.9.4 */ var L = {};', true],
    ['a stylesheet banner after @charset', '@charset "UTF-8";/*!\n * Bootstrap v5.3.2\n */:root{}', true],
    ['a UMD wrapper', '(function (global, factory) {\n  typeof exports === "object" && typeof module !== "undefined" ? module.exports = factory() :\n  typeof define === "function" && define.amd ? define(factory) : global.X = factory();\n})(this, function () {});', true],
    ['a minified UMD wrapper', '!function(e,t){"object"==typeof exports&&"undefined"!=typeof module?module.exports=t():"function"==typeof define&&define.amd?define(t):e.X=t()}(this,function(){});', true],
    ["webpack's notice at the head of the author's bundle", '/*! For license information please see main.js.LICENSE.txt */\n(()=>{})();', false],
    ['an ordinary comment', '/* Estimator: adds the kitchen lines */\nconst a = 1;', false],
    ['a line comment naming a licence', '// @license MIT\nconst a = 1;', false],
    ['code first, a banner later', 'const a = 1;\n/*! not a banner here */', false],
    ['a mention of define.amd alone', 'if (define.amd) x();', false],
  ])('%s: %s', (_name, head, library) => {
    expect(isLibraryHead(Buffer.from(head))).toBe(library);
  });

  it('reads the banner whatever the chunks', () => {
    const code = '/*! Lib v1 */\nwindow.localStorage.x = 1;\n';
    for (const chunk of [1, 2, 5, 100]) expect(scanWith(jsScanner, 'widget.js', code, { chunk }).library?.()).toBe(true);
    expect(scanWith(jsScanner, 'widget.js', `/* mine */\n${code}`, { chunk: 3 }).library?.()).toBe(false);
  });
});

describe('validate marks the code findings in library code', () => {
  const files = {
    ...goodFiles(),
    'index.html': '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><script src="app.js"></script></body></html>',
    'app.js': 'alert("mine");\n',
    'lib/helpers.js': 'alert("mine too");\n',
    'vendor/editor.js': 'el.innerHTML = html;\nconfirm("x");\nthis is not javascript(\n',
    'vendor/LOGO.PNG': Buffer.from('png'),
    'js/chart.min.js': 'localStorage.x = 1;\n',
    'widget.js': '/*! Widget v2 | MIT */\nel.innerHTML = html;\n',
    'umd.js': '(function (g, f) { typeof exports === "object" ? f(exports) : typeof define === "function" && define.amd ? define(f) : f(g); })(this, function () { prompt("x"); });\n',
    'theme.css': '/*! Theme v1 */\n.a { background: url(/img/a.png) }\n',
  };

  it.each([
    ['a folder', () => writeFolder(files)],
    ['a zip', () => writeZip(Object.entries(files).map(([name, data]) => ({ name, data })))],
  ])('in %s', async (_kind, make) => {
    const report = await validateBundle(make());
    expect(report.problems.map((p) => `${p.ruleId} ${p.severity} ${p.file}${p.library ? ' library' : ''}`)).toEqual([
      'dialog-call warning app.js',
      'browser-storage warning js/chart.min.js library',
      'dialog-call warning lib/helpers.js',
      'reference-root-absolute warning theme.css library',
      'dialog-call warning umd.js library',
      'extension-case warning vendor/LOGO.PNG',
      'unsafe-html warning vendor/editor.js library',
      'dialog-call warning vendor/editor.js library',
      'js-syntax error vendor/editor.js library',
      'unsafe-html warning widget.js library',
    ]);
    // Counts and the gate take every warning.
    expect([report.errorCount, report.warningCount]).toEqual([1, 9]);
  });
});
