import { describe, expect, it } from 'vitest';
import { dropRefusedFallbacks } from '../../src/vite/assets.js';

describe('fallback fonts beside .woff2', () => {
  it('are dropped from an @font-face that names .woff2, each src list keeping the rest', () => {
    const css = [
      "@font-face { font-family: A; src: url(./a.woff2) format('woff2'), url(./a.woff) format('woff'); }",
      '@font-face { font-family: B; src: url("../b.eot?v=1"); src: url("../b.eot?#iefix") format("embedded-opentype"), url("../b.woff2?v=1") format("woff2"), url("../b.ttf") format("truetype"); }',
      "@font-face { font-family: C; src: url(./c.ttf) format('truetype'); }",
      '.x { background: url(./x.webp); }',
    ].join('\n');
    const { css: out, dropped } = dropRefusedFallbacks(css);
    expect(out.split('\n')).toEqual([
      "@font-face { font-family: A; src: url(./a.woff2) format('woff2'); }",
      '@font-face { font-family: B;  src: url("../b.woff2?v=1") format("woff2"); }',
      "@font-face { font-family: C; src: url(./c.ttf) format('truetype'); }",
      '.x { background: url(./x.webp); }',
    ]);
    expect(dropped).toEqual(['./a.woff', '../b.eot?v=1', '../b.eot?#iefix', '../b.ttf']);
  });
});
