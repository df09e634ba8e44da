// The non-JavaScript files of the benchmark bundles. Each is a real file of its type (PNGs decode,
// SVG and JSON parse), because `validate` may look inside them and must find nothing wrong.
import { crc32, deflateSync } from 'node:zlib';

const WORDS = [
  'panel', 'header', 'row', 'cell', 'button', 'label', 'input', 'quote', 'line', 'total', 'price',
  'badge', 'card', 'list', 'item', 'toolbar', 'footer', 'summary', 'section', 'group', 'icon',
  'field', 'hint', 'error', 'tab', 'menu', 'dialog', 'table', 'status', 'spinner', 'avatar',
];

const CSS_DECLARATIONS = [
  'display:flex', 'display:grid', 'display:none', 'display:block', 'align-items:center',
  'justify-content:space-between', 'flex-direction:column', 'gap:{s}px', 'padding:{s}px {s}px',
  'margin:0 {s}px', 'color:{c}', 'background:{c}', 'border:1px solid {c}', 'border-radius:{s}px',
  'font-size:{f}px', 'font-weight:600', 'line-height:1.4', 'width:100%', 'min-width:{n}px',
  'max-width:{n}px', 'overflow:hidden', 'text-overflow:ellipsis', 'white-space:nowrap',
  'cursor:pointer', 'opacity:.{d}', 'transition:opacity .2s ease', 'box-shadow:0 1px {s}px rgba(0,0,0,.{d})',
  'position:relative', 'position:absolute', 'top:0', 'left:0', 'z-index:{d}',
];

function fillTemplate(random, template) {
  return template
    .replace(/\{s\}/g, () => String(random.pick([2, 4, 6, 8, 12, 16, 24])))
    .replace(/\{f\}/g, () => String(random.pick([11, 12, 13, 14, 16, 20])))
    .replace(/\{n\}/g, () => String(random.between(40, 960)))
    .replace(/\{d\}/g, () => String(random.between(1, 9)))
    .replace(/\{c\}/g, () => `#${random.int(0x1000000).toString(16).padStart(6, '0')}`);
}

/** Minified CSS: one long line of BEM-style rules, media queries now and then. */
export function generateCss(random, targetBytes) {
  const parts = [];
  let size = 0;
  while (size < targetBytes) {
    const selector = `.pt-${random.pickSkewed(WORDS)}${random.chance(0.6) ? `__${random.pick(WORDS)}` : ''}${random.chance(0.3) ? `--${random.pick(WORDS)}` : ''}${random.chance(0.2) ? ':hover' : ''}`;
    const declarations = [];
    const n = random.between(1, 6);
    for (let i = 0; i < n; i++) declarations.push(fillTemplate(random, random.pickSkewed(CSS_DECLARATIONS)));
    let rule = `${selector}{${declarations.join(';')}}`;
    if (random.chance(0.05)) rule = `@media (max-width:${random.pick([480, 640, 768, 1024])}px){${rule}}`;
    parts.push(rule);
    size += rule.length;
  }
  return `${parts.join('')}\n`;
}

/** An icon-style SVG: a few stroked paths on a 24-unit grid, written the way optimisers leave it. */
export function generateSvg(random, pathCount) {
  const coordinate = () => (random.int(240) / 10).toString();
  const paths = [];
  for (let i = 0; i < pathCount; i++) {
    const commands = [`M${coordinate()} ${coordinate()}`];
    const n = random.between(2, 8);
    for (let j = 0; j < n; j++) {
      const kind = random.pick(['L', 'l', 'h', 'v', 'C', 'a']);
      if (kind === 'h' || kind === 'v') commands.push(`${kind}${coordinate()}`);
      else if (kind === 'C') commands.push(`C${coordinate()} ${coordinate()} ${coordinate()} ${coordinate()} ${coordinate()} ${coordinate()}`);
      else if (kind === 'a') commands.push(`a2 2 0 0 1 ${coordinate()} ${coordinate()}`);
      else commands.push(`${kind}${coordinate()} ${coordinate()}`);
    }
    paths.push(`<path d="${commands.join('')}${random.chance(0.5) ? 'z' : ''}"/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${paths.join('')}</svg>\n`;
}

function pngChunk(type, data) {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(data.length, 0);
  header.write(type, 4, 'latin1');
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(crc32(data, crc32(header.subarray(4))), 0);
  return Buffer.concat([header, data, trailer]);
}

/**
 * A valid 8-bit RGB PNG around the given rows of pixels. The IDAT holds a zlib stream of *stored*
 * blocks (level 0), so the file is as big as its pixels, like a PNG exported without optimisation.
 */
function encodePng(width, height, pixelsForRow) {
  const rowBytes = 1 + width * 3;
  const raw = Buffer.alloc(rowBytes * height);
  for (let y = 0; y < height; y++) {
    raw[y * rowBytes] = 0; // filter type None
    pixelsForRow(y, raw.subarray(y * rowBytes + 1, (y + 1) * rowBytes));
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 0 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Noise: a stand-in for a photograph. Nothing can compress it, so zip stores it as it is. */
export function generatePhotoPng(random, width, height) {
  return encodePng(width, height, (_y, row) => random.fillBytes(row));
}

/**
 * A flat-coloured chart (bars on a white ground): big in the bundle, tiny once deflated, as an
 * unoptimised screenshot or diagram is.
 */
export function generateDiagramPng(random, width, height) {
  const bars = [];
  const count = random.between(4, 12);
  for (let i = 0; i < count; i++) {
    bars.push({
      x0: Math.floor((i * width) / count) + 4,
      x1: Math.floor(((i + 1) * width) / count) - 4,
      top: random.int(height),
      rgb: [random.int(200), random.int(200), 128 + random.int(128)],
    });
  }
  return encodePng(width, height, (y, row) => {
    row.fill(0xff);
    for (const bar of bars) {
      if (y < bar.top) continue;
      for (let x = bar.x0; x < bar.x1; x++) {
        row[x * 3] = bar.rgb[0];
        row[x * 3 + 1] = bar.rgb[1];
        row[x * 3 + 2] = bar.rgb[2];
      }
    }
  });
}

/** Catalogue-style data, the kind a tool ships to work offline. */
export function generateJson(random, targetBytes) {
  const records = [];
  let size = 2;
  while (size < targetBytes) {
    const record = {
      sku: `${random.pick(['PT', 'SV', 'HW', 'LB'])}-${random.between(1000, 99999)}`,
      name: `${random.pick(WORDS)} ${random.pick(WORDS)} ${random.between(1, 500)}`,
      unitPrice: random.between(100, 500000) / 100,
      taxRate: random.pick([0, 0.05, 0.1, 0.15, 0.2]),
      tags: [random.pick(WORDS), random.pick(WORDS)],
    };
    const text = JSON.stringify(record);
    records.push(text);
    size += text.length + 1;
  }
  return `[${records.join(',\n')}]\n`;
}

export function generateManifest(name, shortName) {
  const manifest = {
    name,
    shortName,
    type: 'standalone',
    version: '1.0.0',
    description: 'A synthetic tool bundle used to benchmark pipeline-tool.',
    entry: 'index.html',
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The entry page: loads the styles and the first scripts by relative path, no inline code. */
export function generateIndexHtml(title, { styles, scripts, images, modules = [] }) {
  const lines = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    ...styles.map((href) => `<link rel="stylesheet" href="${href}">`),
    ...scripts.map((src) => `<script src="${src}" defer></script>`),
    ...modules.map((src) => `<script type="module" src="${src}"></script>`),
    '</head>',
    '<body>',
    '<main class="pt-panel">',
    ...images.map((src) => `<img class="pt-panel__icon" src="${src}" alt="">`),
    '</main>',
    '</body>',
    '</html>',
  ];
  return `${lines.join('\n')}\n`;
}
