import zlib from 'node:zlib';
import fc from 'fast-check';
import { goodManifest } from '../helpers/bundles.js';
import { buildZip, type EntrySpec } from '../helpers/zip-builder.js';
import { noise } from '../helpers/noise.js';

/*
 * Generators for the fuzz properties. Every generated input is plain JSON (no Buffers), so a
 * failing case can be saved as a small, readable spec under test/fixtures/fuzz-regressions and
 * replayed later without depending on how these generators happen to draw values.
 */

// ---------------------------------------------------------------------------------------------
// File contents

/**
 * What a file holds, described compactly: a failing 3 MB entry saves as `{"zeros":3000000}`, not
 * as 6 MB of hex.
 */
export type Body =
  | { text: string }
  | { hex: string }
  | { zeros: number }
  | { noise: number; seed: number }
  | { repeat: string; times: number; tail?: string };

export function bodyBytes(body: Body): Buffer {
  if ('text' in body) return Buffer.from(body.text, 'utf8');
  if ('hex' in body) return Buffer.from(body.hex, 'hex');
  if ('zeros' in body) return Buffer.alloc(body.zeros);
  if ('noise' in body) return noise(body.noise, body.seed);
  return Buffer.from(body.repeat.repeat(body.times) + (body.tail ?? ''), 'utf8');
}

const deflated = new Map<string, Buffer>();
/** Deflating 60 MB of zeros takes a while; bomb payloads are made once per run. */
function deflateCached(body: Body, data: Buffer): Buffer {
  if (!('zeros' in body) || body.zeros < 1_000_000) return zlib.deflateRawSync(data);
  const key = `zeros:${body.zeros}`;
  let payload = deflated.get(key);
  if (!payload) deflated.set(key, (payload = zlib.deflateRawSync(data)));
  return payload;
}

const smallBody: fc.Arbitrary<Body> = fc.oneof(
  { arbitrary: fc.record({ text: fc.string({ maxLength: 200 }) }), weight: 4 },
  { arbitrary: fc.record({ hex: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('hex')) }), weight: 2 },
  { arbitrary: fc.record({ zeros: fc.integer({ min: 0, max: 70_000 }) }), weight: 2 },
  { arbitrary: fc.record({ noise: fc.integer({ min: 1, max: 70_000 }), seed: fc.nat() }), weight: 1 },
);

/** Sizes around the reader's thresholds: one-shot inflation below 1 MB, streaming above. */
const largeBody: fc.Arbitrary<Body> = fc.oneof(
  fc.record({ zeros: fc.oneof(fc.constantFrom(1024 * 1024 - 1, 1024 * 1024, 1024 * 1024 + 1), fc.integer({ min: 100_000, max: 3_000_000 })) }),
  fc.record({ noise: fc.integer({ min: 200_000, max: 1_200_000 }), seed: fc.nat() }),
);

export const fileBody: fc.Arbitrary<Body> = fc.oneof({ arbitrary: smallBody, weight: 9 }, { arbitrary: largeBody, weight: 1 });

/**
 * Manifest texts that stress the JSON reader: any JSON value, near-manifests with odd field values,
 * long runs of one token (deep nesting, unclosed strings, escapes), arbitrary text and bytes.
 */
export const manifestBody: fc.Arbitrary<Body> = fc.oneof(
  fc.json({ maxDepth: 4 }).map((text) => ({ text })),
  fc
    .dictionary(
      fc.oneof(fc.constantFrom('name', 'shortName', 'type', 'version', 'description', 'entry', '$schema', 'shortname'), fc.string({ maxLength: 8 })),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 8 },
    )
    .map((fields) => ({ text: JSON.stringify({ ...goodManifest, ...fields }, null, 2) })),
  fc
    .constantFrom('[', '{', '{"a":', '[{"a":', '"', '\\', '\\u', '[1,', ' ', '\n', '{"k":0,', '"k":', '/*', '\ufeff', 'é')
    .chain((repeat) =>
      fc.record({
        repeat: fc.constant(repeat),
        // Mostly up to the 64,000-byte manifest limit, where the reader really parses; sometimes past it.
        times: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 100, max: Math.floor(64_000 / Buffer.byteLength(repeat)) }), fc.constant(70_000)),
        tail: fc.option(fc.constantFrom(']', '}', '"', '0', ''), { nil: undefined }),
      }),
    ),
  fc.string({ unit: 'binary', maxLength: 300 }).map((text) => ({ text })),
  fc.uint8Array({ maxLength: 200 }).map((b) => ({ hex: Buffer.from(b).toString('hex') })),
);

/** Text that no content rule has an opinion about: letters, digits, spaces and a few scripts. */
const proseText = fc
  .array(fc.constantFrom(...'abcdefghij klmnop 0123 ', 'é', 'ü', 'ж', '日本', '😀'), { maxLength: 60 })
  .map((parts) => parts.join(''));

/** Harmless content of the right kind for each allowed type, so clean folders stay clean. */
function cleanBody(extension: string): fc.Arbitrary<Body> {
  switch (extension.toLowerCase()) {
    case '.js':
      return proseText.map((t) => ({ text: `// ${t}\nconst value = ${JSON.stringify(t)};\n` }));
    case '.html':
      return proseText.map((t) => ({ text: `<!doctype html><html><head><title>${t}</title></head><body><p>${t}</p></body></html>\n` }));
    case '.css':
      return proseText.map((t) => ({ text: `/* ${t} */\np { color: #333; }\n` }));
    case '.svg':
      return proseText.map((t) => ({ text: `<svg xmlns="http://www.w3.org/2000/svg"><text>${t}</text></svg>\n` }));
    case '.json':
      return proseText.map((t) => ({ text: JSON.stringify({ label: t }) }));
    default:
      // Large files are rare here: every folder case is compressed and read back twice.
      return fc.oneof({ arbitrary: smallBody, weight: 19 }, { arbitrary: largeBody, weight: 1 });
  }
}

/**
 * Content aimed at the content scanners (JavaScript, HTML, CSS, JSON): long runs of one token that
 * opens something (a comment, a string, a template, a tag, nesting) and never closes it, or code-like
 * text. Scanners read every byte a bundle holds, so they are part of what must never break.
 */
export const scannerBody: fc.Arbitrary<Body> = fc.oneof(
  fc
    .constantFrom('/*', '//', '"', "'", '`', '`${', '${', '(', '[', '{', '<!--', '<script>', '<style>', '</', '<', '&#', 'url(', '@import "', '\\', '/', 'pipeline.', 'localStorage', 'innerHTML=', '\\u{', '\n', '\r\n', '\u2028', '\0')
    .chain((repeat) =>
      fc.record({
        repeat: fc.constant(repeat),
        times: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1000, max: 200_000 })),
        tail: fc.option(fc.constantFrom('*/', '"', '`', ')', '}', '-->', '</script>', '>', ''), { nil: undefined }),
      }),
    ),
  fc.string({ unit: fc.constantFrom(...'{}[]()<>/*`\'"$#@;:=+-!?&|.,%\\ \n\tabcx0129'.split(''), 'script', 'style', 'pipeline', 'eval', 'http://', '\u2028', '\ufeff', 'é'), maxLength: 400 }).map((text) => ({ text })),
);

// ---------------------------------------------------------------------------------------------
// Names

/** Letters a tool author may really use, including spaces, accents (both normal forms), CJK, emoji. */
const NAME_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789', ' ', '-', '_', '(', ')', 'é', 'e\u0301', 'ü', 'ß', 'Å', 'ж', '日本', '😀', 'ﬁ'];
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** One path segment without an extension that every platform accepts. */
export const nameStem: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...NAME_CHARS), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join(''))
  .filter((s) => !/[ .]$/.test(s) && !s.startsWith(' ') && !WINDOWS_RESERVED.test(s));

export const ALLOWED = ['.html', '.css', '.js', '.svg', '.png', '.jpg', '.woff2', '.json'] as const;

/** A relative path of 1 to 3 segments ending in a name with `extension`. */
export function safePath(extension: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(fc.array(nameStem, { maxLength: 2 }), nameStem, extension)
    .map(([dirs, stem, ext]) => [...dirs, stem + ext].join('/'));
}

/** The key under which two names would collide somewhere (exact, Unicode form, letter case). */
export function collisionKey(path: string): string {
  return path.normalize('NFC').toLowerCase();
}

function folderPrefixes(path: string): string[] {
  const segments = path.split('/');
  return segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join('/'));
}

/**
 * Two paths that clash on disk or in a zip: one the same as the other, one inside the other, or
 * folders on their way spelled differently ("a/x.js" and "A/y.js").
 */
function clashes(a: string, b: string): boolean {
  const ka = collisionKey(a);
  const kb = collisionKey(b);
  if (ka === kb || kb.startsWith(`${ka}/`) || ka.startsWith(`${kb}/`)) return true;
  const folders = new Map(folderPrefixes(a).map((f) => [collisionKey(f), f]));
  return folderPrefixes(b).some((f) => folders.has(collisionKey(f)) && folders.get(collisionKey(f)) !== f);
}

// ---------------------------------------------------------------------------------------------
// Zip bundles

export interface ZipFile {
  name: string;
  body: Body;
  method: 0 | 8;
  descriptor?: 'signed' | 'unsigned';
  /** Recorded as "made by Unix" with this mode, as Info-ZIP does. */
  unixMode?: number;
}

export interface BaseZip {
  files: ZipFile[];
}

const GOOD_FILES: Record<string, Body> = {
  'manifest.json': { text: JSON.stringify(goodManifest, null, 2) },
  'index.html': { text: '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><script src="app.js"></script></body></html>' },
  'app.js': { text: 'document.body.append("ready");\n' },
  'styles.css': { text: 'body { font-family: sans-serif; }\n' },
};

const storage = fc.record(
  {
    method: fc.constantFrom<0 | 8>(0, 8),
    descriptor: fc.constantFrom<'signed' | 'unsigned'>('signed', 'unsigned'),
    unixMode: fc.constantFrom(0o100644, 0o100755),
  },
  { requiredKeys: ['method'] },
);

/**
 * A valid bundle: the clean tool's four files plus up to five more with safe, distinct names,
 * each stored or deflated, with or without a data descriptor. Unmutated, it must validate clean.
 */
export const validBaseZip: fc.Arbitrary<BaseZip> = fc
  .tuple(
    fc.tuple(...Object.keys(GOOD_FILES).map(() => storage)),
    fc.uniqueArray(
      fc.constantFrom(...ALLOWED).chain((extension) => fc.record({ name: safePath(fc.constant(extension)), body: cleanBody(extension) })),
      { maxLength: 5, selector: (f) => collisionKey(f.name) },
    ),
    fc.array(storage, { minLength: 5, maxLength: 5 }),
  )
  .map(([goodStorage, extras, extraStorage]) => {
    const good = Object.entries(GOOD_FILES).map(([name, body], i) => ({ name, body, ...goodStorage[i]! }));
    const more: ZipFile[] = [];
    for (const [i, extra] of extras.entries()) {
      if (![...good, ...more].some((f) => clashes(f.name, extra.name))) more.push({ ...extra, ...extraStorage[i]! });
    }
    return { files: [...good, ...more] };
  });

/**
 * A base bundle whose manifest may be replaced by hostile text, and whose other files may hold any
 * bytes at all (from zeros to text built to trip the content scanners).
 */
export const baseZip: fc.Arbitrary<BaseZip> = fc
  .tuple(
    validBaseZip,
    fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: manifestBody, weight: 1 }),
    fc.array(fc.oneof(fc.constant(undefined), fileBody, scannerBody), { minLength: 9, maxLength: 9 }),
  )
  .map(([base, manifest, bodies]) => ({
    files: base.files.map((f, i) => {
      if (f.name === 'manifest.json') return manifest ? { ...f, body: manifest } : f;
      const body = bodies[i];
      return body ? { ...f, body } : f;
    }),
  }));

export function zipEntries(base: BaseZip): EntrySpec[] {
  return base.files.map((file) => {
    const data = bodyBytes(file.body);
    return {
      name: file.name,
      data,
      method: file.method,
      ...(file.method === 8 ? { payload: deflateCached(file.body, data) } : {}),
      ...(file.descriptor ? { descriptor: { signature: file.descriptor === 'signed' } } : {}),
      ...(file.unixMode !== undefined ? { unixMode: file.unixMode } : {}),
    };
  });
}

export function buildBase(base: BaseZip): Buffer {
  return buildZip(zipEntries(base));
}

// ---------------------------------------------------------------------------------------------
// Where things are in a zip

type FieldTable = Record<string, readonly [offset: number, width: 1 | 2 | 4]>;

export const LOCAL_FIELDS = {
  signature: [0, 4],
  version: [4, 2],
  flags: [6, 2],
  method: [8, 2],
  time: [10, 2],
  date: [12, 2],
  crc: [14, 4],
  compressedSize: [18, 4],
  uncompressedSize: [22, 4],
  nameLength: [26, 2],
  extraLength: [28, 2],
} as const satisfies FieldTable;

export const CENTRAL_FIELDS = {
  signature: [0, 4],
  madeBy: [4, 2],
  hostSystem: [5, 1],
  version: [6, 2],
  flags: [8, 2],
  method: [10, 2],
  time: [12, 2],
  date: [14, 2],
  crc: [16, 4],
  compressedSize: [20, 4],
  uncompressedSize: [24, 4],
  nameLength: [28, 2],
  extraLength: [30, 2],
  commentLength: [32, 2],
  diskStart: [34, 2],
  internalAttributes: [36, 2],
  externalAttributes: [38, 4],
  localOffset: [42, 4],
} as const satisfies FieldTable;

export const EOCD_FIELDS = {
  signature: [0, 4],
  disk: [4, 2],
  cdDisk: [6, 2],
  entriesOnDisk: [8, 2],
  totalEntries: [10, 2],
  cdSize: [12, 4],
  cdOffset: [16, 4],
  commentLength: [20, 2],
} as const satisfies FieldTable;

/** Offsets relative to the start of the descriptor, past its optional signature. */
export const DESCRIPTOR_FIELDS = { crc: [0, 4], compressedSize: [4, 4], uncompressedSize: [8, 4] } as const satisfies FieldTable;

export interface LocalSpan {
  offset: number;
  nameStart: number;
  nameLength: number;
  dataStart: number;
  dataEnd: number;
  /** Start of the descriptor's fields (past the signature), when there is a descriptor. */
  descriptor?: number;
  end: number;
}

export interface CentralSpan {
  offset: number;
  nameStart: number;
  nameLength: number;
  end: number;
}

export interface Layout {
  size: number;
  locals: LocalSpan[];
  centrals: CentralSpan[];
  cdOffset: number;
  eocd: number;
  /** Every structure and field edge, sorted: where truncations, insertions and flips aim. */
  boundaries: number[];
}

/**
 * Maps a well-formed zip (as the builder writes it) so mutations can aim at exact fields. This is
 * deliberately a separate, naive parser: it only ever sees archives known to be valid.
 */
export function parseLayout(zip: Buffer): Layout {
  const eocd = zip.lastIndexOf(Buffer.from('504b0506', 'hex'));
  if (eocd < 0) throw new Error('parseLayout: not a zip the builder wrote');
  const count = zip.readUInt16LE(eocd + 10);
  const cdOffset = zip.readUInt32LE(eocd + 16);
  const locals: LocalSpan[] = [];
  const centrals: CentralSpan[] = [];
  let pos = cdOffset;
  for (let i = 0; i < count; i++) {
    const nameLength = zip.readUInt16LE(pos + 28);
    const end = pos + 46 + nameLength + zip.readUInt16LE(pos + 30) + zip.readUInt16LE(pos + 32);
    centrals.push({ offset: pos, nameStart: pos + 46, nameLength, end });
    const offset = zip.readUInt32LE(pos + 42);
    const localNameLength = zip.readUInt16LE(offset + 26);
    const dataStart = offset + 30 + localNameLength + zip.readUInt16LE(offset + 28);
    const dataEnd = dataStart + zip.readUInt32LE(pos + 20);
    let descriptor: number | undefined;
    let localEnd = dataEnd;
    if (zip.readUInt16LE(pos + 8) & 0x8) {
      const signed = zip.readUInt32LE(dataEnd) === 0x08074b50;
      descriptor = dataEnd + (signed ? 4 : 0);
      localEnd = descriptor + 12;
    }
    locals.push({ offset, nameStart: offset + 30, nameLength: localNameLength, dataStart, dataEnd, ...(descriptor !== undefined ? { descriptor } : {}), end: localEnd });
    pos = end;
  }
  const edges = new Set<number>([0, zip.length, cdOffset, eocd]);
  const addFields = (base: number, table: FieldTable) => {
    for (const [offset, width] of Object.values(table)) edges.add(base + offset).add(base + offset + width);
  };
  for (const l of locals) {
    addFields(l.offset, LOCAL_FIELDS);
    edges.add(l.nameStart + l.nameLength).add(l.dataStart).add(l.dataEnd).add(l.end);
    if (l.descriptor !== undefined) addFields(l.descriptor, DESCRIPTOR_FIELDS);
  }
  for (const c of centrals) {
    addFields(c.offset, CENTRAL_FIELDS);
    edges.add(c.end);
  }
  addFields(eocd, EOCD_FIELDS);
  const boundaries = [...edges].filter((e) => e >= 0 && e <= zip.length).sort((a, b) => a - b);
  return { size: zip.length, locals, centrals, cdOffset, eocd, boundaries };
}

// ---------------------------------------------------------------------------------------------
// Mutations

/** A number to write into a field, relative to what is there or to the archive's own structure. */
export type Value =
  | { abs: number }
  | { add: number }
  | { xor: number }
  /** The offset of the k-th structure boundary (mod their count): points one structure at another. */
  | { boundary: number }
  /** The archive's size plus this: just inside or just past the end. */
  | { fromEnd: number };

export type Where =
  | { in: 'local' | 'central' | 'both'; entry: number; field: string }
  | { in: 'descriptor'; entry: number; field: keyof typeof DESCRIPTOR_FIELDS }
  | { in: 'eocd'; field: keyof typeof EOCD_FIELDS };

export type Mutation =
  | { op: 'set'; where: Where; value: Value }
  | { op: 'flip'; boundary: number; delta: number; xor: number }
  | { op: 'flipAnywhere'; position: number; xor: number }
  | { op: 'name'; in: 'local' | 'central' | 'both'; entry: number; position: number; byte: number }
  | { op: 'truncate'; boundary: number; delta: number }
  | { op: 'insert'; boundary: number; hex: string }
  | { op: 'remove'; boundary: number; length: number }
  | { op: 'splice'; from: number; length: number; to: number };

export interface ZipCase {
  base: BaseZip;
  mutations: Mutation[];
  /** Inflation budget passed to validate; undefined means the real 50,000,000. */
  budget?: number;
}

const U32_EDGES = [0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];
const FLAG_BITS = [0x0001, 0x0002, 0x0004, 0x0008, 0x0040, 0x0800, 0x2000];
const METHODS = [0, 1, 6, 8, 9, 12, 14, 93, 95, 98, 99];
/** File types in the high half of the external attributes, as Unix zip tools record them. */
const UNIX_MODES = [0o100644, 0o120777, 0o040755, 0o010644, 0o020644, 0o060644, 0o140755, 0o170777, 0];
const DOS_ATTRIBUTES = [0x10, 0x400, 0x20, 0x01, 0x02, 0x04];
const HOSTS = [0, 3, 10, 11, 14, 19, 30];

const genericValue: fc.Arbitrary<Value> = fc.oneof(
  { arbitrary: fc.record({ abs: fc.constantFrom(...U32_EDGES) }), weight: 3 },
  { arbitrary: fc.record({ add: fc.integer({ min: -64, max: 64 }).filter((n) => n !== 0) }), weight: 3 },
  { arbitrary: fc.record({ xor: fc.integer({ min: 0, max: 31 }).map((bit) => 2 ** bit) }), weight: 2 },
  { arbitrary: fc.record({ boundary: fc.nat({ max: 1000 }) }), weight: 2 },
  { arbitrary: fc.record({ fromEnd: fc.integer({ min: -40, max: 40 }) }), weight: 1 },
  { arbitrary: fc.record({ abs: fc.nat({ max: 0xffffffff }) }), weight: 1 },
);

/** Values that mean something in particular fields, mixed with the generic ones. */
function valueFor(field: string): fc.Arbitrary<Value> {
  const special: fc.Arbitrary<Value>[] = [];
  if (field === 'flags') special.push(fc.record({ xor: fc.constantFrom(...FLAG_BITS) }));
  if (field === 'method') special.push(fc.record({ abs: fc.constantFrom(...METHODS) }));
  if (field === 'externalAttributes') {
    special.push(fc.record({ abs: fc.constantFrom(...UNIX_MODES).map((m) => (m << 16) >>> 0) }), fc.record({ abs: fc.constantFrom(...DOS_ATTRIBUTES) }));
  }
  if (field === 'hostSystem') special.push(fc.record({ abs: fc.constantFrom(...HOSTS) }));
  return special.length ? fc.oneof(genericValue, ...special) : genericValue;
}

function setIn<T extends string>(where: T, fields: readonly string[], withEntry: boolean): fc.Arbitrary<Mutation> {
  return fc
    .constantFrom(...fields)
    .chain((field) =>
      fc.record({
        op: fc.constant('set' as const),
        where: (withEntry ? fc.record({ in: fc.constant(where), entry: fc.nat({ max: 15 }), field: fc.constant(field) }) : fc.record({ in: fc.constant(where), field: fc.constant(field) })) as fc.Arbitrary<Where>,
        value: valueFor(field),
      }),
    );
}

/** Fields with the same meaning in both headers: editing both keeps them consistent liars. */
const SHARED_FIELDS = ['flags', 'method', 'crc', 'compressedSize', 'uncompressedSize', 'time', 'date', 'version'];

const SIGNATURES = ['504b0304', '504b0102', '504b0506', '504b0708', '504b0607', '504b0606'];
const insertBytes = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 48 }).map((b) => Buffer.from(b).toString('hex')),
  fc.tuple(fc.constantFrom(...SIGNATURES), fc.uint8Array({ maxLength: 42 })).map(([sig, b]) => sig + Buffer.from(b).toString('hex')),
);

const NAME_BYTES = [0x2f, 0x5c, 0x00, 0x0a, 0x2e, 0x3a, 0x20, 0x41, 0x61, 0x7f, 0x80, 0xc3, 0xe2, 0xff];

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: setIn('local', Object.keys(LOCAL_FIELDS), true), weight: 4 },
  { arbitrary: setIn('central', Object.keys(CENTRAL_FIELDS), true), weight: 5 },
  { arbitrary: setIn('both', SHARED_FIELDS, true), weight: 3 },
  { arbitrary: setIn('descriptor', Object.keys(DESCRIPTOR_FIELDS), true), weight: 1 },
  { arbitrary: setIn('eocd', Object.keys(EOCD_FIELDS), false), weight: 3 },
  {
    arbitrary: fc.record({ op: fc.constant('flip' as const), boundary: fc.nat({ max: 1000 }), delta: fc.nat({ max: 255 }), xor: fc.integer({ min: 1, max: 255 }) }),
    weight: 3,
  },
  { arbitrary: fc.record({ op: fc.constant('flipAnywhere' as const), position: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }), weight: 2 },
  {
    arbitrary: fc.record({
      op: fc.constant('name' as const),
      in: fc.constantFrom<'local' | 'central' | 'both'>('local', 'central', 'both'),
      entry: fc.nat({ max: 15 }),
      position: fc.nat({ max: 64 }),
      byte: fc.constantFrom(...NAME_BYTES),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ op: fc.constant('truncate' as const), boundary: fc.nat({ max: 1000 }), delta: fc.integer({ min: -2, max: 2 }) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('insert' as const), boundary: fc.nat({ max: 1000 }), hex: insertBytes }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('remove' as const), boundary: fc.nat({ max: 1000 }), length: fc.integer({ min: 1, max: 64 }) }), weight: 1 },
  {
    arbitrary: fc.record({ op: fc.constant('splice' as const), from: fc.nat({ max: 1000 }), length: fc.integer({ min: 1, max: 200 }), to: fc.nat({ max: 1000 }) }),
    weight: 1,
  },
);

const smallBudget = fc.oneof(fc.constantFrom(0, 1, 4096, 1024 * 1024), fc.integer({ min: 0, max: 4_000_000 }));

/** A valid bundle with one to four precise mutations, sometimes checked under a small budget. */
export const zipCase: fc.Arbitrary<ZipCase> = fc.record(
  {
    base: baseZip,
    mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }),
    budget: smallBudget,
  },
  { requiredKeys: ['base', 'mutations'] },
);

/** Multiplies a zip bomb's output: entries of zeros well past 50 MB in total, then mutated. */
export const bombCase: fc.Arbitrary<ZipCase> = fc.record({
  base: fc
    .tuple(validBaseZip, fc.array(fc.constantFrom(20_000_000, 49_999_999, 50_000_001, 60_000_000), { minLength: 1, maxLength: 3 }))
    .map(([base, sizes]) => ({
      // Images, which no content scanner reads: these cases are about the inflation budget alone.
      files: [...base.files, ...sizes.map((zeros, i) => ({ name: `bomb${i}.png`, body: { zeros }, method: 8 as const }))],
    })),
  mutations: fc.array(mutation, { maxLength: 3 }),
});

function resolve(value: Value, current: number, layout: Layout, width: number): number {
  const mask = width === 4 ? 0xffffffff : width === 2 ? 0xffff : 0xff;
  let n: number;
  if ('abs' in value) n = value.abs;
  else if ('add' in value) n = current + value.add;
  else if ('xor' in value) n = current ^ value.xor;
  else if ('boundary' in value) n = layout.boundaries[value.boundary % layout.boundaries.length]!;
  else n = layout.size + value.fromEnd;
  return (((n % (mask + 1)) + (mask + 1)) % (mask + 1)) >>> 0;
}

function readField(bytes: Buffer, at: number, width: number): number {
  if (at + width > bytes.length) return 0;
  return width === 4 ? bytes.readUInt32LE(at) : width === 2 ? bytes.readUInt16LE(at) : bytes[at]!;
}

function writeField(bytes: Buffer, at: number, width: number, value: number): void {
  if (at < 0 || at + width > bytes.length) return;
  if (width === 4) bytes.writeUInt32LE(value >>> 0, at);
  else if (width === 2) bytes.writeUInt16LE(value & 0xffff, at);
  else bytes[at] = value & 0xff;
}

/** Absolute positions of a field, for every header the mutation names. */
function fieldPositions(where: Where, layout: Layout): { at: number; width: number }[] {
  const table = (t: FieldTable, base: number, field: string) => {
    const spec = t[field];
    return spec ? [{ at: base + spec[0], width: spec[1] }] : [];
  };
  if (where.in === 'eocd') return table(EOCD_FIELDS, layout.eocd, where.field);
  const count = layout.locals.length;
  if (count === 0) return [];
  const local = layout.locals[where.entry % count]!;
  const central = layout.centrals[where.entry % count]!;
  if (where.in === 'descriptor') return local.descriptor === undefined ? [] : table(DESCRIPTOR_FIELDS, local.descriptor, where.field);
  if (where.in === 'local') return table(LOCAL_FIELDS, local.offset, where.field);
  if (where.in === 'central') return table(CENTRAL_FIELDS, central.offset, where.field);
  return [...table(LOCAL_FIELDS, local.offset, where.field), ...table(CENTRAL_FIELDS, central.offset, where.field)];
}

/**
 * Applies mutations to a valid zip. Edits that keep the length (fields, bit flips, name bytes)
 * go first, all aimed with the original layout; then truncations, insertions and removals, in
 * order, which may move things about (positions past the end are clamped).
 */
export function applyMutations(original: Buffer, mutations: readonly Mutation[]): Buffer {
  const layout = parseLayout(original);
  const boundary = (k: number) => layout.boundaries[k % layout.boundaries.length]!;
  let bytes = Buffer.from(original);
  const reshapes = (m: Mutation) => m.op === 'truncate' || m.op === 'insert' || m.op === 'remove' || m.op === 'splice';
  const inPlace = mutations.filter((m) => !reshapes(m));
  const reshaping = mutations.filter(reshapes);
  for (const m of inPlace) {
    if (m.op === 'set') {
      for (const { at, width } of fieldPositions(m.where, layout)) {
        writeField(bytes, at, width, resolve(m.value, readField(bytes, at, width), layout, width));
      }
    } else if (m.op === 'flip') {
      const at = Math.min(boundary(m.boundary) + m.delta, bytes.length - 1);
      if (at >= 0) bytes[at]! ^= m.xor;
    } else if (m.op === 'flipAnywhere') {
      if (bytes.length > 0) bytes[m.position % bytes.length]! ^= m.xor;
    } else if (m.op === 'name' && layout.locals.length > 0) {
      const i = m.entry % layout.locals.length;
      const spans = m.in === 'local' ? [layout.locals[i]!] : m.in === 'central' ? [layout.centrals[i]!] : [layout.locals[i]!, layout.centrals[i]!];
      for (const span of spans) if (span.nameLength > 0) bytes[span.nameStart + (m.position % span.nameLength)] = m.byte;
    }
  }
  for (const m of reshaping) {
    const clamp = (n: number) => Math.max(0, Math.min(n, bytes.length));
    if (m.op === 'truncate') bytes = bytes.subarray(0, clamp(boundary(m.boundary) + m.delta));
    else if (m.op === 'insert') {
      const at = clamp(boundary(m.boundary));
      bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(m.hex, 'hex'), bytes.subarray(at)]);
    } else if (m.op === 'remove') {
      const at = clamp(boundary(m.boundary));
      bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(clamp(at + m.length))]);
    } else if (m.op === 'splice') {
      const from = clamp(boundary(m.from));
      const piece = Buffer.from(bytes.subarray(from, clamp(from + m.length)));
      const to = clamp(boundary(m.to));
      bytes = Buffer.concat([bytes.subarray(0, to), piece, bytes.subarray(to)]);
    }
  }
  return bytes;
}

export function buildCase(c: ZipCase): Buffer {
  return applyMutations(buildBase(c.base), c.mutations);
}

// ---------------------------------------------------------------------------------------------
// Arbitrary bytes

/** Raw bytes, sometimes seeded with zip signatures so the reader gets past its first checks. */
export const byteString: fc.Arbitrary<{ hex: string }> = fc
  .oneof(
    fc.uint8Array({ maxLength: 400 }),
    fc
      .tuple(fc.uint8Array({ maxLength: 200 }), fc.array(fc.tuple(fc.nat(), fc.constantFrom(...SIGNATURES)), { minLength: 1, maxLength: 4 }))
      .map(([raw, sigs]) => {
        let bytes = Buffer.from(raw);
        for (const [at, sig] of sigs) {
          const where = bytes.length ? at % (bytes.length + 1) : 0;
          bytes = Buffer.concat([bytes.subarray(0, where), Buffer.from(sig, 'hex'), bytes.subarray(where)]);
        }
        return new Uint8Array(bytes);
      }),
  )
  .map((b) => ({ hex: Buffer.from(b).toString('hex') }));

// ---------------------------------------------------------------------------------------------
// Tool folders (for pack)

export interface FolderFile {
  /** Slash-separated, as written to disk (not normalised: NFD names stay NFD). */
  path: string;
  body: Body;
  /** Whether pack should put the file in the bundle, as the generator intends it. */
  expect: 'in' | 'out';
}

export interface FolderSpec {
  files: FolderFile[];
  /** Empty folders, which hold nothing to pack. */
  emptyDirs: string[];
}

/** Either Unicode normal form: macOS file systems hand out decomposed (NFD) names, most others composed. */
const normalForm = fc.constantFrom<'NFC' | 'NFD'>('NFC', 'NFD');

/** An included file: an allowed type (sometimes upper case), in up to two folders. */
const includedFile: fc.Arbitrary<FolderFile> = fc
  .tuple(fc.array(nameStem, { maxLength: 2 }), nameStem, fc.constantFrom(...ALLOWED, '.PNG', '.Js', '.CSS'), normalForm)
  .chain(([dirs, stem, extension, form]) =>
    cleanBody(extension).map((body) => ({ path: [...dirs, stem + extension].join('/').normalize(form), body, expect: 'in' as const })),
  );

const dirsPrefix = fc.array(nameStem, { maxLength: 2 }).map((dirs) => dirs.map((d) => `${d}/`).join(''));

/** Files pack must leave out: wrong types, source maps, dot-files, OS debris, project files, node_modules. */
const excludedFile: fc.Arbitrary<FolderFile> = fc
  .oneof(
    fc.tuple(dirsPrefix, nameStem, fc.constantFrom('.txt', '.md', '.ts', '.mjs', '.jpeg', '.gif', '.zip', '.js.map', '.css.map', '')).map(([d, s, e]) => d + s + e),
    fc.tuple(dirsPrefix, nameStem, fc.constantFrom('', '.js', '.json')).map(([d, s, e]) => `${d}.${s}${e}`),
    fc.tuple(dirsPrefix, fc.constantFrom('.DS_Store', 'Thumbs.db', 'desktop.ini', '._app.js', '__MACOSX/._index.html', '.git/HEAD', '.vscode/settings.json')).map(([d, n]) => d + n),
    fc.tuple(dirsPrefix, fc.constantFrom('package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'yarn.lock', 'jsconfig.json')).map(([d, n]) => d + n),
    fc.tuple(dirsPrefix, safePath(fc.constantFrom(...ALLOWED))).map(([d, p]) => `${d}node_modules/${p}`),
  )
  .chain((path) => smallBody.map((body) => ({ path, body, expect: 'out' as const })));

function withoutClashes(files: FolderFile[]): FolderFile[] {
  const kept: FolderFile[] = [];
  for (const file of files) if (!kept.some((k) => clashes(k.path, file.path))) kept.push(file);
  return kept;
}

const goodManifestFile = (entry: string, fields: Record<string, unknown> = {}, schema = false): FolderFile => ({
  path: 'manifest.json',
  // The editor hint an init'd project has first; pack leaves it out of the zip.
  body: { text: JSON.stringify({ ...(schema ? { $schema: '../node_modules/pipeline-tool/schemas/manifest.schema.json' } : {}), ...goodManifest, entry, ...fields }, null, 2) },
  expect: 'in',
});

/** A fixtures file for `pipeline-tool dev` kept in the tool folder: recognised by its $schema, never packed. */
const fixturesFile: FolderFile = {
  path: 'dev-fixtures.json',
  body: { text: JSON.stringify({ $schema: './node_modules/pipeline-tool/schemas/fixtures.schema.json', mode: 'extend' }, null, 2) },
  expect: 'out',
};

/**
 * A folder pack should turn into a clean bundle: a good manifest, index.html, up to eight more
 * included files with Unicode and spaces in their names, and clutter that pack must leave out.
 */
export const cleanFolder: fc.Arbitrary<FolderSpec> = fc
  .record({
    included: fc.array(includedFile, { maxLength: 8 }),
    excluded: fc.array(excludedFile, { maxLength: 6 }),
    emptyDirs: fc.array(nameStem, { maxLength: 2 }),
  })
  .map(({ included, excluded, emptyDirs }) => {
    const files = withoutClashes([goodManifestFile('index.html'), { path: 'index.html', body: { text: '<!doctype html><p>tool</p>' }, expect: 'in' }, ...included, ...excluded]);
    const dirs = emptyDirs.map((d) => `empty ${d}`).filter((d) => !files.some((f) => clashes(f.path, d)));
    return { files, emptyDirs: [...new Set(dirs)] };
  });

/** Names that should fail validate, on files pack would otherwise include. */
const hostileName = fc.constantFrom('a:b.js', 'what?.png', 'con.js', 'Aux.css', 'dir./x.js', 'trailing /x.js', 'evil\u202egnp.js', 'tab\there.js', 'zero\u200bwidth.css', 'nul\u0001.svg', 'back\\slash.js');

/**
 * Tool folders with whatever an author may really have: besides the clean content, manifests with
 * warnings or errors, an entry page with a Unicode name (either normal form) or in a subfolder,
 * names that differ only by case or Unicode form, hostile names and upper-case extensions.
 */
export const wildFolder: fc.Arbitrary<FolderSpec> = fc
  .record({
    clean: cleanFolder,
    entry: fc.oneof(
      fc.constant('index.html'),
      fc.tuple(nameStem, normalForm).map(([s, form]) => `${s}.html`.normalize(form)),
      fc.tuple(nameStem, nameStem).map(([d, s]) => `${d}/${s}.html`),
    ),
    manifest: fc.oneof(
      { arbitrary: fc.constant({ fields: {} }), weight: 3 },
      {
        arbitrary: fc
          .constantFrom<Record<string, unknown>>({ description: 'Two sentences. Here is the second.' }, { shortName: 'A short name that is far too long' }, { colour: 'red' }, { version: 'v1' }, { type: 'widget' })
          .map((fields) => ({ fields })),
        weight: 2,
      },
      { arbitrary: manifestBody.map((body) => ({ body })), weight: 1 },
    ),
    twins: fc.array(
      fc.tuple(includedFile, fc.constantFrom<'upper' | 'nfd'>('upper', 'nfd')).map(([file, how]) => [
        file,
        { ...file, path: how === 'upper' ? file.path.toUpperCase() : file.path.normalize('NFD') },
      ] as const),
      { maxLength: 1 },
    ),
    hostile: fc.array(hostileName.chain((path) => cleanBody(path.slice(path.lastIndexOf('.'))).map((body) => ({ path, body, expect: 'in' as const }))), { maxLength: 1 }),
    schema: fc.boolean(),
    fixtures: fc.boolean(),
    /** The page refers to one of the other files (maybe one pack leaves out), by its index. */
    refersTo: fc.option(fc.nat(), { nil: undefined }),
    /** Now and then a photo that puts the zip just under or just over the 10,000,000-byte limit. */
    photo: fc.oneof({ arbitrary: fc.constant(undefined), weight: 24 }, { arbitrary: fc.integer({ min: 9_999_000, max: 10_000_400 }), weight: 1 }),
  })
  .map(({ clean, entry, manifest, twins, hostile, schema, fixtures, refersTo, photo }) => {
    const manifestFile: FolderFile = 'fields' in manifest ? goodManifestFile(entry, manifest.fields, schema) : { path: 'manifest.json', body: manifest.body, expect: 'in' };
    const rest = clean.files.filter((f) => f.path !== 'manifest.json' && f.path !== 'index.html');
    const target = refersTo === undefined || rest.length === 0 ? undefined : rest[refersTo % rest.length]!.path;
    const image = target === undefined || entry.includes('/') ? '' : `<img src="${encodeURI(target)}" alt="">`;
    const page: FolderFile = { path: entry, body: { text: `<!doctype html><p>tool</p>${image}` }, expect: 'in' };
    const large: FolderFile[] = photo === undefined ? [] : [{ path: 'photo.png', body: { noise: photo, seed: photo }, expect: 'in' }];
    const files = withoutClashes([manifestFile, page, ...hostile, ...(fixtures ? [fixturesFile] : []), ...large, ...rest]);
    // Twins clash on purpose (that is the point), but only with each other.
    for (const pair of twins) {
      if (pair[0].path !== pair[1].path && !pair.some((t) => files.some((f) => clashes(f.path, t.path)))) files.push(...pair);
    }
    return { files, emptyDirs: clean.emptyDirs.filter((d) => !files.some((f) => clashes(f.path, d))) };
  });
