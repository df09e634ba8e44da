/*
 * The report page's script, run in the browser. scripts/build.mjs bundles it with d3-hierarchy
 * (whose squarified treemap lays the rectangles out) into one inline script; nothing is fetched.
 * It reads the report from the page's JSON block and builds everything with DOM calls: every name
 * in it (file names, package names, messages) is untrusted text and goes in as textContent or an
 * attribute value, never as markup.
 */
import { hierarchy, treemap, treemapSquarify, type HierarchyRectangularNode } from 'd3-hierarchy';
import { formatShare, groupDigits } from '../../core/format-bytes.js';
import type { BundleReport, ReportOrigin, Sized } from '../../core/report/bundle-report.js';
import type { Measure } from '../../core/report/limits.js';
import { placeText } from '../../core/place-text.js';

interface Node {
  name: string;
  /** The full name shown on hover: a file's path, a package's name. */
  label: string;
  kind: 'folder' | 'file' | 'package' | 'source' | 'group' | 'unmapped';
  raw: number;
  zipped: number;
  children?: Node[];
}

type SizeBy = 'raw' | 'zipped';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 1000;
const HEIGHT = 520;
const COLOURS: Record<Node['kind'], string> = {
  folder: '#e8edf3',
  file: '#7aa6d8',
  package: '#e3a34f',
  source: '#67b77a',
  group: '#e8edf3',
  unmapped: '#b9b9b9',
};

/** A file's colour by its type, so scripts, styles, pages and images stand apart. */
const TYPE_COLOURS: Record<string, string> = { js: '#7aa6d8', css: '#b08fd6', html: '#e08f8f', json: '#d9c46a', svg: '#8fcfc4', png: '#8fcfc4', jpg: '#8fcfc4', woff2: '#c9a27e' };

function colourOf(node: Node): string {
  if (node.kind !== 'file') return COLOURS[node.kind];
  const type = /\.([^./]+)$/.exec(node.name)?.[1]?.toLowerCase() ?? '';
  return TYPE_COLOURS[type] ?? '#a8b3bf';
}

const report = JSON.parse(document.getElementById('report-data')!.textContent!) as BundleReport;
const main = document.querySelector('main')!;

const percent = formatShare;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const made = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, String(value));
  return made;
}

function section(title: string, id: string): HTMLElement {
  const box = element('section');
  box.id = id;
  box.append(element('h2', title));
  main.append(box);
  return box;
}

function limits(): void {
  const box = section('Marketplace limits', 'limits');
  const rows: [string, Measure, string][] = [
    ['Zip file', report.limits.zipBytes, 'bytes'],
    ['Unpacked', report.limits.unpackedBytes, 'bytes'],
    ['Files', report.limits.files, 'files'],
  ];
  for (const [label, measure, unit] of rows) {
    const row = element('div', undefined, 'limit');
    row.dataset['limit'] = String(measure.limit);
    row.dataset['used'] = measure.used === null ? '' : String(measure.used);
    const figures = measure.used === null ? `not measured of ${groupDigits(measure.limit)} ${unit}` : `${groupDigits(measure.used)} of ${groupDigits(measure.limit)} ${unit} (${percent(measure.share!)})`;
    const bar = element('div', undefined, 'bar');
    const fill = element('div', undefined, `fill${measure.share !== null && measure.share > 1 ? ' over' : measure.share !== null && measure.share > 0.9 ? ' near' : ''}`);
    // Set through the CSS object model, which the page's policy allows (a style attribute it would not).
    fill.style.width = `${Math.min(100, (measure.share ?? 0) * 100)}%`;
    bar.append(fill);
    bar.setAttribute('role', 'meter');
    bar.setAttribute('aria-valuemin', '0');
    bar.setAttribute('aria-valuemax', String(measure.limit));
    if (measure.used !== null) bar.setAttribute('aria-valuenow', String(measure.used));
    row.append(element('span', label, 'limit-name'), bar, element('span', figures, 'figures'));
    box.append(row);
  }
}

/** The bundle's files as a tree of folders. */
function fileTree(): Node {
  const root: Node = { name: '', label: report.bundle, kind: 'folder', raw: 0, zipped: 0, children: [] };
  for (const file of report.files) {
    const parts = file.path.split('/');
    let at = root;
    parts.slice(0, -1).forEach((part, i) => {
      let next = at.children!.find((child) => child.kind === 'folder' && child.name === part);
      if (!next) at.children!.push((next = { name: part, label: `${parts.slice(0, i + 1).join('/')}/`, kind: 'folder', raw: 0, zipped: 0, children: [] }));
      at = next;
    });
    at.children!.push({ name: parts.at(-1)!, label: file.path, kind: 'file', raw: file.raw, zipped: file.zipped });
  }
  return root;
}

/** Where the bytes come from: npm packages, the author's sources (by folder), and files no map explains. */
function originTree(): Node {
  const sources: Node = { name: 'your sources', label: 'your sources', kind: 'group', raw: 0, zipped: 0, children: [] };
  for (const item of report.sources) {
    const parts = item.name.split('/');
    let at = sources;
    parts.slice(0, -1).forEach((part, i) => {
      let next = at.children!.find((child) => child.kind === 'group' && child.name === part);
      if (!next) at.children!.push((next = { name: part, label: `${parts.slice(0, i + 1).join('/')}/`, kind: 'group', raw: 0, zipped: 0, children: [] }));
      at = next;
    });
    at.children!.push({ name: parts.at(-1)!, label: item.name, kind: 'source', raw: item.raw, zipped: item.zipped });
  }
  const packages: Node = {
    name: 'npm packages',
    label: 'npm packages',
    kind: 'group',
    raw: 0,
    zipped: 0,
    children: report.packages.map((item) => ({ name: item.name, label: `node_modules/${item.name}`, kind: 'package', raw: item.raw, zipped: item.zipped })),
  };
  const others: Node = {
    name: 'files without a source map',
    label: 'files without a source map',
    kind: 'group',
    raw: 0,
    zipped: 0,
    children: report.files.filter((file) => !file.mapped).map((file) => ({ name: file.path, label: file.path, kind: 'file', raw: file.raw, zipped: file.zipped })),
  };
  const unmapped: Node = { name: 'not mapped', label: 'bytes of mapped files that no mapping covers', kind: 'unmapped', raw: report.unmapped.raw, zipped: report.unmapped.zipped };
  return { name: '', label: report.bundle, kind: 'group', raw: 0, zipped: 0, children: [packages, sources, unmapped, others] };
}

function drawTreemap(box: HTMLElement, tree: Node, sizeBy: SizeBy): void {
  box.querySelector('svg')?.remove();
  const root = hierarchy(tree, (node) => node.children)
    .sum((node) => (node.children ? 0 : Math.max(0, node[sizeBy])))
    .sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
  const laid = treemap<Node>().tile(treemapSquarify).size([WIDTH, HEIGHT]).paddingOuter(2).paddingTop((node) => (node.depth === 0 ? 2 : 18)).paddingInner(1).round(true)(root);
  const picture = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', class: 'treemap' });
  const caption = svg('title');
  caption.textContent = `${tree.label}, sized by ${sizeBy === 'raw' ? 'unpacked' : 'zipped'} bytes`;
  picture.append(caption);
  for (const node of laid.descendants()) {
    if (node.depth === 0) continue;
    const width = node.x1 - node.x0;
    const height = node.y1 - node.y0;
    if (width < 1 || height < 1) continue;
    const group = svg('g', { class: `node ${node.data.kind}` });
    group.dataset['name'] = node.data.label;
    const rect = svg('rect', { x: node.x0, y: node.y0, width, height, fill: colourOf(node.data) });
    const title = svg('title');
    title.textContent = `${node.data.label}\n${groupDigits(sum(node, 'raw'))} bytes unpacked, ${groupDigits(sum(node, 'zipped'))} bytes zipped`;
    group.append(rect, title);
    const label = labelFor(node, width, height);
    if (label) group.append(label);
    picture.append(group);
  }
  box.append(picture);
}

function sum(node: HierarchyRectangularNode<Node>, by: SizeBy): number {
  return node.leaves().reduce((total, leaf) => total + leaf.data[by], 0);
}

/** A name inside its rectangle when there is room for some of it: at the top of a folder, in the middle of a leaf. */
function labelFor(node: HierarchyRectangularNode<Node>, width: number, height: number): SVGTextElement | undefined {
  const room = Math.floor((width - 6) / 6.5);
  if (room < 3 || height < 14) return undefined;
  const name = node.data.name.length > room ? `${node.data.name.slice(0, room - 1)}…` : node.data.name;
  const text = svg('text', { x: node.x0 + 3, y: node.y0 + 13, class: node.children ? 'folder-label' : 'leaf-label' });
  text.textContent = name;
  return text;
}

function treemapSection(title: string, id: string, tree: Node, note: string): void {
  const box = section(title, id);
  box.append(element('p', note, 'note'));
  const choice = element('div', undefined, 'size-by');
  let sizeBy: SizeBy = 'zipped';
  for (const [value, text] of [
    ['zipped', 'zipped bytes'],
    ['raw', 'unpacked bytes'],
  ] as const) {
    const labelled = element('label');
    const input = element('input');
    input.type = 'radio';
    input.name = `${id}-size-by`;
    input.value = value;
    input.checked = value === sizeBy;
    input.addEventListener('change', () => {
      sizeBy = value;
      drawTreemap(box, tree, sizeBy);
    });
    labelled.append(input, ` sized by ${text}`);
    choice.append(labelled);
  }
  box.append(choice);
  drawTreemap(box, tree, sizeBy);
}

function table(title: string, id: string, rows: readonly (ReportOrigin & { mapped?: boolean })[], nameHeading: string, empty: string, extra?: Sized & { name: string }): void {
  const box = section(title, id);
  if (rows.length === 0) {
    box.append(element('p', empty, 'note'));
    return;
  }
  const total = rows.reduce((sum, row) => sum + row.raw, 0) + (extra?.raw ?? 0);
  const grid = element('table');
  const head = element('tr');
  for (const heading of [nameHeading, 'unpacked bytes', 'zipped bytes', 'share']) head.append(element('th', heading));
  const thead = element('thead');
  thead.append(head);
  grid.append(thead);
  const body = element('tbody');
  for (const row of extra && extra.raw > 0 ? [...rows, extra] : rows) {
    const line = element('tr');
    line.dataset['name'] = row.name;
    line.dataset['raw'] = String(row.raw);
    line.dataset['zipped'] = String(row.zipped);
    line.append(element('td', row.name, 'name'), element('td', groupDigits(row.raw), 'number'), element('td', groupDigits(row.zipped), 'number'), element('td', total > 0 ? percent(row.raw / total) : '', 'number'));
    body.append(line);
  }
  grid.append(body);
  box.append(grid);
}

function findings(): void {
  const box = section(`Findings (${report.findings.length})`, 'findings');
  if (report.findings.length === 0) {
    box.append(element('p', 'No problems: the bundle passes every rule.', 'note'));
    return;
  }
  const list = element('ol');
  for (const finding of report.findings) {
    const item = element('li', undefined, finding.severity);
    item.dataset['rule'] = finding.ruleId;
    const place = finding.file === undefined ? '' : placeText(finding.file, finding.line, finding.column);
    item.append(element('span', finding.severity, 'severity'), ' ', element('code', place || '(the bundle)', 'place'), ' ', element('span', finding.message), ' ', element('span', `(${finding.ruleId})`, 'rule'));
    if (finding.built) item.append(' ', element('span', `built: ${placeText(finding.built.file, finding.built.line, finding.built.column)}`, 'built'));
    list.append(item);
  }
  box.append(list);
}

limits();
treemapSection('The bundle by folder and file', 'files-map', fileTree(), 'Each rectangle is a file of the bundle, inside its folder; hover for its bytes.');
if (report.sourceRoot !== null) {
  treemapSection(
    'Where the bytes come from',
    'origins-map',
    originTree(),
    'Through the source maps: npm packages (node_modules/<package>), your own sources, the bytes of mapped files no mapping covers, and the files that have no map.',
  );
}
table('Files', 'files', report.files.map((file) => ({ name: file.path, raw: file.raw, zipped: file.zipped })), 'file', 'The bundle holds no file.');
if (report.sourceRoot !== null) {
  table('npm packages', 'packages', report.packages, 'package', 'No byte of the bundle comes from node_modules/.');
  table('Your sources', 'sources', report.sources, 'source', 'No source file of yours is named by a map.', { name: '(not mapped)', ...report.unmapped });
}
findings();
document.body.dataset['ready'] = 'true';
