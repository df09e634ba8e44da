import { readFile } from 'node:fs/promises';
import type {
  BridgeContextDto,
  BridgeCostItemDto,
  BridgeCustomerDto,
  BridgeJobCostTemplateDto,
  BridgeJobDto,
  BridgeProductDto,
  BridgeQuoteDto,
  BridgeTaskTemplateDto,
} from '../bridge/types.js';
import { pointerToken, positionFinder, positionOf, readJson, scanJson } from '../core/json/scan-json.js';
import { NotRegularFileError, readRegularFile } from '../core/regular-file.js';
import { DEFAULT_FIXTURES } from './default-fixtures.js';
import type { FixtureApiKey } from './rest/keys.js';
import { FixtureError, type FixtureProblem } from './errors.js';
import { fixtureQuoteProblems } from './rest/quotes.js';
import { settingSlot, type JsonValue } from './settings.js';

/*
 * The data the emulated host serves. A project may bring its own fixture file (documented by
 * schemas/fixtures.schema.json) that extends or replaces the built-in set. Loading is the only
 * I/O in the model, and it is confined to loadFixtureFile.
 */

/** Rows may belong to another tenant; left out, they belong to the data set's own tenant. */
interface TenantRow {
  tenantId?: string;
}

/** Rows that can be switched off; left out, they are active. */
interface ActiveRow {
  active?: boolean;
}

/** How the tenant's customer-facing quote template prints. */
export interface QuoteTemplateSettings {
  showSubtotals: boolean;
  showUnitPrices: boolean;
}

/** A task template to inject after a product line: its code, or its code with the task line's prices. */
export type TaskSequenceStep = string | { code: string; unitPrice?: number; costPrice?: number };

export interface FixtureCustomer extends BridgeCustomerDto, TenantRow {}
export interface FixtureProduct extends BridgeProductDto, TenantRow {
  taskSequence?: TaskSequenceStep[];
}
export interface FixtureTaskTemplate extends BridgeTaskTemplateDto, TenantRow, ActiveRow {}
export interface FixtureCostItem extends BridgeCostItemDto, TenantRow, ActiveRow {}
export interface FixtureJobCostTemplate extends BridgeJobCostTemplateDto, TenantRow, ActiveRow {}
export interface FixtureSupplier extends TenantRow, ActiveRow {
  id: string;
  reference: string;
  name: string;
}
export interface FixtureJob extends BridgeJobDto, TenantRow, ActiveRow {}
/** A line of a fixture quote, as GET /api/v1/quotes/{id} shows it; the model prices it. */
export interface FixtureQuoteLine {
  skuId?: string | null;
  description?: string | null;
  productCode?: string | null;
  qty: number;
  unitPrice: number;
  /** A fraction, as quotes.create takes it: 0.15 is 15%. */
  taxRate: number;
  supplierRef?: string | null;
}
export interface FixtureQuote extends BridgeQuoteDto, TenantRow {
  /** The quote's lines; their total must be the quote's `total`. */
  lines?: FixtureQuoteLine[];
}
export interface FixtureOpenQuote {
  id: string;
  ref: string;
  customerName: string;
  title?: string | null;
}
export interface FixtureSetting extends TenantRow {
  toolId: string;
  key: string;
  value: JsonValue;
}

/** A complete data set. */
export interface Fixtures {
  context: BridgeContextDto;
  quoteTemplate: QuoteTemplateSettings;
  customers: FixtureCustomer[];
  products: FixtureProduct[];
  taskTemplates: FixtureTaskTemplate[];
  costItems: FixtureCostItem[];
  jobCostTemplates: FixtureJobCostTemplate[];
  suppliers: FixtureSupplier[];
  jobs: FixtureJob[];
  quotes: FixtureQuote[];
  openQuote: FixtureOpenQuote;
  settings: FixtureSetting[];
  /** Keys for the REST API; they belong to the data set's tenant. */
  apiKeys: FixtureApiKey[];
}

/** What a project's fixture file holds: any part of a data set, and whether it extends or replaces. */
export interface FixtureFile extends Partial<Omit<Fixtures, 'context' | 'quoteTemplate' | 'openQuote'>> {
  $schema?: string;
  /** `extend` (the default) lays the file over the built-in set; `replace` uses the file alone. */
  mode?: 'extend' | 'replace';
  context?: Partial<BridgeContextDto>;
  quoteTemplate?: Partial<QuoteTemplateSettings>;
  openQuote?: Partial<FixtureOpenQuote>;
}

const TABLES = ['customers', 'products', 'taskTemplates', 'costItems', 'jobCostTemplates', 'suppliers', 'jobs', 'quotes'] as const;

/** The open quote of a replacing file that names none: an empty draft. */
const BLANK_OPEN_QUOTE: FixtureOpenQuote = { id: '90000000-0000-4000-8000-000000000001', ref: 'Q-NEW', customerName: '' };

/**
 * Rows of `extra` replace rows of `base` with the same id (GUIDs compare without regard to case),
 * in place; the others are appended. One pass over each list, so a catalogue of 100,000 rows
 * merges as fast as a handful.
 */
function mergeById<T extends { id: string }>(base: readonly T[], extra: readonly T[]): T[] {
  const merged = [...base];
  const at = new Map<string, number>();
  merged.forEach((row, index) => {
    const id = row.id.toLowerCase();
    if (!at.has(id)) at.set(id, index);
  });
  for (const row of extra) {
    const id = row.id.toLowerCase();
    const index = at.get(id);
    if (index === undefined) {
      at.set(id, merged.length);
      merged.push(row);
    } else merged[index] = row;
  }
  return merged;
}

/** API keys of `extra` replace those of `base` with the same key string; the others are appended. */
function mergeByKey(base: readonly FixtureApiKey[], extra: readonly FixtureApiKey[]): FixtureApiKey[] {
  const merged = new Map(base.map((key) => [key.key, key]));
  for (const key of extra) merged.set(key.key, key);
  return [...merged.values()];
}

/** Where a fixture setting is kept; settings without a tenant belong to `defaultTenant`. */
export function fixtureSettingSlot(setting: FixtureSetting, defaultTenant: string): string {
  return settingSlot({ tenantId: setting.tenantId ?? defaultTenant, toolId: setting.toolId }, setting.key);
}

/** The data set a fixture file describes, laid over `base` unless the file replaces it. */
export function applyFixtureFile(file: FixtureFile, base: Fixtures = DEFAULT_FIXTURES): Fixtures {
  if (file.mode === 'replace') {
    return {
      // The schema makes context complete in replace mode.
      context: file.context as BridgeContextDto,
      quoteTemplate: { showSubtotals: true, showUnitPrices: true, ...file.quoteTemplate },
      customers: file.customers ?? [],
      products: file.products ?? [],
      taskTemplates: file.taskTemplates ?? [],
      costItems: file.costItems ?? [],
      jobCostTemplates: file.jobCostTemplates ?? [],
      suppliers: file.suppliers ?? [],
      jobs: file.jobs ?? [],
      quotes: file.quotes ?? [],
      openQuote: { ...BLANK_OPEN_QUOTE, ...file.openQuote },
      settings: file.settings ?? [],
      apiKeys: file.apiKeys ?? [],
    };
  }
  const context = { ...base.context, ...file.context };
  const settings = new Map(base.settings.map((s) => [fixtureSettingSlot(s, base.context.tenantId), s]));
  for (const setting of file.settings ?? []) settings.set(fixtureSettingSlot(setting, context.tenantId), setting);
  return {
    context,
    quoteTemplate: { ...base.quoteTemplate, ...file.quoteTemplate },
    customers: mergeById(base.customers, file.customers ?? []),
    products: mergeById(base.products, file.products ?? []),
    taskTemplates: mergeById(base.taskTemplates, file.taskTemplates ?? []),
    costItems: mergeById(base.costItems, file.costItems ?? []),
    jobCostTemplates: mergeById(base.jobCostTemplates, file.jobCostTemplates ?? []),
    suppliers: mergeById(base.suppliers, file.suppliers ?? []),
    jobs: mergeById(base.jobs, file.jobs ?? []),
    quotes: mergeById(base.quotes, file.quotes ?? []),
    openQuote: { ...base.openQuote, ...file.openQuote },
    settings: [...settings.values()],
    apiKeys: mergeByKey(base.apiKeys, file.apiKeys ?? []),
  };
}

/** The code a task sequence step names. */
function taskStepCode(step: TaskSequenceStep): string {
  return typeof step === 'string' ? step : step.code;
}

/**
 * What the schema cannot see: ids used twice within one table of the file, settings set twice,
 * and task sequences naming task templates that the merged data set does not have.
 */
function findReferenceProblems(file: FixtureFile, merged: Fixtures): Omit<FixtureProblem, 'line' | 'column'>[] {
  const problems: Omit<FixtureProblem, 'line' | 'column'>[] = [];
  for (const table of TABLES) {
    const seen = new Set<string>();
    (file[table] ?? []).forEach((row, index) => {
      const id = row.id.toLowerCase();
      if (seen.has(id)) problems.push({ pointer: `/${table}/${index}/id`, message: `id ${row.id} is used by an earlier row of ${table}` });
      seen.add(id);
    });
  }
  const seenKeys = new Set<string>();
  (file.apiKeys ?? []).forEach((apiKey, index) => {
    if (seenKeys.has(apiKey.key)) problems.push({ pointer: `/apiKeys/${index}/key`, message: 'this API key is given by an earlier entry of apiKeys' });
    seenKeys.add(apiKey.key);
    const seenScopes = new Set<string>();
    (apiKey.scopes ?? []).forEach((scope, scopeIndex) => {
      if (seenScopes.has(scope)) problems.push({ pointer: `/apiKeys/${index}/scopes/${scopeIndex}`, message: `scope "${scope}" is listed twice` });
      seenScopes.add(scope);
    });
  });
  const seenSettings = new Set<string>();
  (file.settings ?? []).forEach((setting, index) => {
    const slot = fixtureSettingSlot(setting, merged.context.tenantId);
    if (seenSettings.has(slot)) problems.push({ pointer: `/settings/${index}`, message: `setting "${setting.key}" of tool "${setting.toolId}" is given twice` });
    seenSettings.add(slot);
  });
  problems.push(...fixtureQuoteProblems(file.quotes ?? []));
  // Looked up, not searched: a catalogue of many products with task sequences stays linear.
  const templateKey = (tenant: string, code: string) => JSON.stringify([tenant, code]);
  const templates = new Set(merged.taskTemplates.map((t) => templateKey(t.tenantId ?? merged.context.tenantId, t.code)));
  (file.products ?? []).forEach((product, index) => {
    const tenant = product.tenantId ?? merged.context.tenantId;
    (product.taskSequence ?? []).forEach((step, stepIndex) => {
      const code = taskStepCode(step);
      if (!templates.has(templateKey(tenant, code))) {
        problems.push({
          pointer: `/products/${index}/taskSequence/${stepIndex}`,
          message: `task template code "${code}" matches no task template of tenant ${tenant}`,
        });
      }
    });
  });
  return problems;
}

interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

type FixtureValidator = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };
let compiledValidator: Promise<FixtureValidator> | undefined;

/** Compiles schemas/fixtures.schema.json once, and only when a fixture file is actually loaded. */
function fixtureValidator(): Promise<FixtureValidator> {
  compiledValidator ??= (async () => {
    const [{ Ajv }, schemaText] = await Promise.all([
      import('ajv'),
      // The schema ships beside dist/ in the package; from src/ and dist/ alike it is two levels up.
      readFile(new URL('../../schemas/fixtures.schema.json', import.meta.url), 'utf8'),
    ]);
    const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
    return ajv.compile(inlineDefinitions(JSON.parse(schemaText) as SchemaNode)) as FixtureValidator;
  })();
  return compiledValidator;
}

type SchemaNode = { [key: string]: unknown };

/**
 * The schema with each `{"$ref": "#/definitions/…"}` replaced by the definition itself. Ajv
 * compiles a reference it cannot inline into a function of its own, and with allErrors it adds
 * that function's errors to the list gathered so far by copying the list (`concat`), once per
 * row: a file whose every row is wrong took time in the square of its rows (40,000 rows, two
 * minutes). Inlined, every error is appended in place. The schema has no recursive definition;
 * one that refers to itself would be left as a reference.
 */
function inlineDefinitions(schema: SchemaNode): SchemaNode {
  const definitions = (schema['definitions'] ?? {}) as Record<string, unknown>;
  const inline = (node: unknown, within: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => inline(item, within));
    if (typeof node !== 'object' || node === null) return node;
    const ref = (node as SchemaNode)['$ref'];
    const name = typeof ref === 'string' && ref.startsWith('#/definitions/') ? ref.slice('#/definitions/'.length) : undefined;
    if (name !== undefined && Object.keys(node).length === 1 && Object.hasOwn(definitions, name) && !within.includes(name)) {
      return inline(definitions[name], [...within, name]);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'definitions' ? value : inline(value, within)]));
  };
  return inline(schema, []) as SchemaNode;
}

/**
 * Patterns read badly as regular expressions; say what they mean instead. Keyed by the pattern
 * itself: Ajv compiles a definition that holds references of its own (such as `quote`) separately
 * and gives its errors a schema path from that definition, not from the root.
 */
const PATTERN_HINTS: Record<string, string> = {
  '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$': 'must be a GUID, such as 20000000-0000-4000-8000-000000000001',
  '^[a-z]{2}-[A-Z]{2}$': 'must be a culture code of the form xx-XX, such as en-NZ',
  '^\\d{4}-\\d{2}-\\d{2}T': 'must be an ISO 8601 date and time, such as 2025-06-11T04:45:00.000Z',
  '^[A-Za-z0-9._~+/=-]{8,200}$': 'must be 8 to 200 letters, digits and the characters - . _ ~ + / = (it travels in an Authorization header)',
  '^[A-Za-z][A-Za-z0-9_]{0,63}$': 'must be a role token such as H_Admin: a letter, then up to 63 letters, digits and _',
};

function describeSchemaError(error: SchemaError): Omit<FixtureProblem, 'line' | 'column'> {
  const { params } = error;
  if (error.keyword === 'additionalProperties') {
    const field = String(params['additionalProperty']);
    // A JSON pointer escapes ~ and / in a key; Ajv's instancePath already does, the key is raw.
    const token = field.replace(/~/g, '~0').replace(/\//g, '~1');
    return { pointer: `${error.instancePath}/${token}`, message: `unknown field "${field}"` };
  }
  if (error.keyword === 'required') {
    return { pointer: error.instancePath, message: `missing required field "${String(params['missingProperty'])}"` };
  }
  if (error.keyword === 'pattern') {
    const hint = PATTERN_HINTS[String(params['pattern'])];
    if (hint !== undefined) return { pointer: error.instancePath, message: hint };
  }
  if (error.keyword === 'enum') {
    const allowed = (params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ');
    return { pointer: error.instancePath, message: `must be one of ${allowed}` };
  }
  return { pointer: error.instancePath, message: error.message ?? `breaks the schema rule "${error.keyword}"` };
}

/**
 * The most problems a FixtureError lists; the rest are counted. A file whose every row is wrong
 * usually has one mistake made many times, and tens of thousands of lines would bury it.
 */
export const MAX_FIXTURE_PROBLEMS = 50;

/**
 * The FIXTURE_INVALID error for these problems (of `total` found): the first MAX_FIXTURE_PROBLEMS
 * of them placed in the text, and the number of the others.
 */
function invalidFixtures<P>(file: string, text: string, problems: readonly P[], describe: (problem: P) => Omit<FixtureProblem, 'line' | 'column'>, total = problems.length): FixtureError {
  const listed = problems.slice(0, MAX_FIXTURE_PROBLEMS).map(describe);
  return new FixtureError('FIXTURE_INVALID', file, locate(text, listed), { more: total - listed.length });
}

/**
 * Adds line and column to problems located by JSON pointer, walking up to the nearest value found.
 * The scan stops once every pointer is placed, so problems near the top of a large file are
 * placed without reading all of it.
 */
function locate(text: string, problems: Omit<FixtureProblem, 'line' | 'column'>[]): FixtureProblem[] {
  // A pointer the text does not have (a key written with escapes) makes the scan run to the end,
  // and is then walked up.
  const scan = scanJson(text, { stopOnceFound: new Set(problems.map((problem) => problem.pointer)) });
  const positionOf = positionFinder(text);
  return problems.map((problem) => {
    let pointer = problem.pointer;
    let offset = scan.ok ? scan.offsets.get(pointer) : undefined;
    while (offset === undefined && scan.ok && pointer !== '') {
      pointer = pointer.slice(0, pointer.lastIndexOf('/'));
      offset = scan.offsets.get(pointer);
    }
    return offset === undefined ? { ...problem, line: null, column: null } : { ...problem, ...positionOf(offset) };
  });
}

/**
 * Reads fixture text (named `file` in messages) into a data set over the built-in one.
 * Rejects with a FixtureError giving line and column for bad JSON, and a JSON pointer (plus line
 * and column) for every schema or reference problem.
 */
export async function parseFixtures(text: string, file: string, base: Fixtures = DEFAULT_FIXTURES): Promise<Fixtures> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const read = readJson(body);
  if (!read.ok) throw new FixtureError('FIXTURE_SYNTAX', file, [{ pointer: '', ...positionOf(body, read.offset), message: read.message }], { cause: read.cause });
  return checkFixtures(read.value, () => body, file, base);
}

/**
 * The data set a fixture file's parsed value describes, as parseFixtures makes it. `text` gives the
 * file's text (without a byte order mark); it is asked for only to place problems.
 */
export async function checkFixtures(value: unknown, text: () => string, file: string, base: Fixtures = DEFAULT_FIXTURES): Promise<Fixtures> {
  return mergeFixtureFile(await validateFixtureValue(value, text, file), text, file, base);
}

/** Rows of one table checked at a time, with `pause` between: a few milliseconds of work. */
const ROWS_PER_STEP = 1000;

/**
 * A parsed fixture file checked against schemas/fixtures.schema.json; a FIXTURE_INVALID error lists
 * the first problems and counts the rest. A long table is checked ROWS_PER_STEP rows at a time
 * (as a file holding only those rows, its errors renumbered to their place in the table), calling
 * `pause` between steps: dev passes a turn of the event loop, so that a reload answers requests
 * meanwhile. The tables' schemas are nothing but `items`, so the steps find what one pass would.
 */
export async function validateFixtureValue(value: unknown, text: () => string, file: string, pause: () => Promise<void> = async () => {}): Promise<FixtureFile> {
  const validate = await fixtureValidator();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    if (validate(value)) return value as FixtureFile;
    throw invalidFixtures(file, text(), validate.errors ?? [], describeSchemaError, validate.errors?.length ?? 0);
  }
  const record = value as Record<string, unknown>;
  const long = Object.keys(record).filter((key) => Array.isArray(record[key]) && (record[key] as unknown[]).length > ROWS_PER_STEP);
  // The first errors are kept, the others only counted.
  const errors: SchemaError[] = [];
  let total = 0;
  const keep = (found: readonly SchemaError[] | null | undefined, renumber = (error: SchemaError) => error) => {
    for (const error of found ?? []) {
      if (error.keyword === 'if') continue;
      if (++total <= MAX_FIXTURE_PROBLEMS) errors.push(renumber(error));
    }
  };
  // The file with its long tables empty, built key by key so that a member named __proto__ stays data.
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(record)) Object.defineProperty(rest, key, { value: long.includes(key) ? [] : record[key], enumerable: true, writable: true, configurable: true });
  if (!validate(rest)) keep(validate.errors);
  for (const key of long) {
    const rows = record[key] as unknown[];
    const prefix = `/${pointerToken(key)}/`;
    for (let start = 0; start < rows.length; start += ROWS_PER_STEP) {
      await pause();
      if (validate({ [key]: rows.slice(start, start + ROWS_PER_STEP) })) continue;
      keep(validate.errors, (error) => {
        const index = error.instancePath.slice(prefix.length).split('/', 1)[0]!;
        return { ...error, instancePath: `${prefix}${Number(index) + start}${error.instancePath.slice(prefix.length + index.length)}` };
      });
    }
  }
  if (total === 0) return value as FixtureFile;
  throw invalidFixtures(file, text(), errors, describeSchemaError, total);
}

/**
 * The data set a fixture file that passed the schema describes over `base`, after the checks the
 * schema cannot make (ids used twice, task sequences naming no template). Linear in the rows.
 */
export function mergeFixtureFile(fixtureFile: FixtureFile, text: () => string, file: string, base: Fixtures = DEFAULT_FIXTURES): Fixtures {
  const merged = applyFixtureFile(fixtureFile, base);
  const problems = findReferenceProblems(fixtureFile, merged);
  if (problems.length > 0) throw invalidFixtures(file, text(), problems, (problem) => problem);
  return merged;
}

/** Reads a project's fixture file from disk; see parseFixtures. */
export async function loadFixtureFile(path: string, base: Fixtures = DEFAULT_FIXTURES): Promise<Fixtures> {
  return parseFixtures((await readFixtureBytes(path)).toString('utf8'), path, base);
}

/** The bytes of a fixture file, or a FIXTURE_UNREADABLE error saying why there are none. */
export async function readFixtureBytes(path: string): Promise<Buffer> {
  try {
    return await readRegularFile(path);
  } catch (error) {
    const reason =
      error instanceof NotRegularFileError
        ? `it is ${error.kind}, not a regular file; give the path of a JSON file`
        : (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'file not found'
          : (error as Error).message;
    throw new FixtureError('FIXTURE_UNREADABLE', path, [{ pointer: '', line: null, column: null, message: reason }], { cause: error });
  }
}
