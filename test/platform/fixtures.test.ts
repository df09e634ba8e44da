import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotRegularFileError } from '../../src/core/regular-file.js';
import { MAX_FIXTURE_PROBLEMS } from '../../src/platform/fixtures.js';
import { createTestHost } from '../../src/testing/index.js';
import {
  API_ENDPOINTS,
  createPlatform,
  DEFAULT_API_KEY,
  DEFAULT_API_RATE_LIMIT,
  DEFAULT_FIXTURES,
  FixtureError,
  loadFixtureFile,
  parseFixtures,
  resolveApiKeys,
  scanJson,
  validateFixtureValue,
  type FixtureErrorCode,
} from '../../src/platform/index.js';

/** Line and column of the first occurrence of `needle` in `text`. */
function positionOfText(text: string, needle: string): { line: number; column: number } {
  const before = text.slice(0, text.indexOf(needle));
  return { line: before.split('\n').length, column: before.length - before.lastIndexOf('\n') };
}

const PRODUCT = { id: '2a000000-0000-4000-8000-000000000001', sku: 'OVEN-600', name: 'Wall oven 600 mm', price: 1899, unit: 'T_ITEM' };

async function fixtureErrorOf(text: string, code: FixtureErrorCode): Promise<FixtureError> {
  const error: unknown = await parseFixtures(text, 'fixtures.json').then(
    () => {
      throw new Error('expected the fixtures to be refused');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FixtureError);
  expect((error as FixtureError).code).toBe(code);
  return error as FixtureError;
}

/** [pointer, line, column] of each problem. */
const locations = (error: FixtureError) => error.problems.map((p) => [p.pointer, p.line, p.column]);

describe('the default data set', () => {
  it('passes its own schema and survives a JSON round trip unchanged', async () => {
    const text = JSON.stringify({ mode: 'replace', ...DEFAULT_FIXTURES }, null, 2);
    expect(await parseFixtures(text, 'defaults.json')).toEqual(DEFAULT_FIXTURES);
  });

  it('has what the rules need: task sequences, inactive rows, the four named job cost templates, suppliers and jobs', () => {
    expect(DEFAULT_FIXTURES.products.filter((p) => (p.taskSequence ?? []).length > 0).length).toBeGreaterThanOrEqual(3);
    expect(DEFAULT_FIXTURES.jobCostTemplates.map((t) => t.code)).toEqual(expect.arrayContaining(['SHIPPING', 'DISPOSAL', 'TRAVEL', 'CHECK-MEASURE']));
    for (const table of [DEFAULT_FIXTURES.taskTemplates, DEFAULT_FIXTURES.costItems, DEFAULT_FIXTURES.jobCostTemplates, DEFAULT_FIXTURES.suppliers, DEFAULT_FIXTURES.jobs]) {
      expect(table.some((row) => row.active === false)).toBe(true);
    }
    expect(DEFAULT_FIXTURES.suppliers.some((s) => s.reference === 'T_SELF')).toBe(true);
  });
});

describe('fixture files: extend and replace', () => {
  it('extend (the default) adds rows, replaces rows with the same id, and merges objects field by field', async () => {
    const fixtures = await parseFixtures(
      JSON.stringify({
        $schema: './node_modules/pipeline-tool/schemas/fixtures.schema.json',
        context: { userRole: 'H_Field' },
        quoteTemplate: { showUnitPrices: false },
        products: [PRODUCT],
        customers: [{ id: '10000000-0000-4000-8000-00000000000A', name: 'Renamed', email: 'r@example.nz', phone: '' }],
        settings: [{ toolId: 'my-tool', key: 'markup', value: { percent: 30 } }],
      }),
      'fixtures.json',
    );
    expect(fixtures.context).toEqual({ ...DEFAULT_FIXTURES.context, userRole: 'H_Field' });
    expect(fixtures.quoteTemplate).toEqual({ showSubtotals: true, showUnitPrices: false });
    expect(fixtures.products.at(-1)).toEqual(PRODUCT);
    expect(fixtures.products).toHaveLength(DEFAULT_FIXTURES.products.length + 1);
    expect(fixtures.customers.at(-1)!.name).toBe('Renamed');
    expect(fixtures.customers).toHaveLength(DEFAULT_FIXTURES.customers.length + 1);

    const platform = createPlatform({ toolId: 'my-tool', toolType: 'standalone', fixtures });
    expect(await platform.sdk.settings.get('markup')).toEqual({ percent: 30 });
    expect((await platform.sdk.products.list({ pageSize: 100 })).items.map((p) => p.sku)).toContain('OVEN-600');
  });

  it('overrides a built-in row by id without regard to case', async () => {
    const fixtures = await parseFixtures(
      JSON.stringify({ customers: [{ id: '10000000-0000-4000-8000-000000000001'.toUpperCase(), name: 'Aroha T.', email: 'a@example.nz', phone: '' }] }),
      'fixtures.json',
    );
    expect(fixtures.customers).toHaveLength(DEFAULT_FIXTURES.customers.length);
    expect(fixtures.customers[0]!.name).toBe('Aroha T.');
  });

  it('replace uses the file alone, adds a Self supplier, and starts an empty open quote', async () => {
    const context = { userName: 'U', userEmail: 'u@x.nz', userRole: 'H_Office', tenantName: 'Solo', tenantId: 'solo', cultureCode: 'en-GB' };
    const fixtures = await parseFixtures(JSON.stringify({ mode: 'replace', context, products: [PRODUCT] }), 'fixtures.json');
    expect(fixtures.customers).toEqual([]);
    const platform = createPlatform({ toolId: 't', toolType: 'quoting_extension', fixtures });
    expect((await platform.sdk.products.list()).items).toEqual([PRODUCT]);
    await platform.sdk.quotes.addLines([{ qty: 1, unitPrice: 1, taxRate: 0, supplierRef: 'anyone', linkedItemId: PRODUCT.id }]);
    expect(platform.editorView().blocks[0]!.lines[0]).toMatchObject({ supplierRef: 'T_SELF', supplierName: 'Self', linkedCode: 'OVEN-600' });
    expect(platform.editorView().quote).toMatchObject({ ref: 'Q-NEW', customerName: '' });
  });
});

describe('laying a fixture file over the data set', () => {
  const context = { userName: 'U', userEmail: 'u@x.nz', userRole: 'H_Office', tenantName: 'Solo', tenantId: 'solo', cultureCode: 'en-GB' };

  it('replace: every table the file leaves out is empty, and the quote template shows everything', async () => {
    const fixtures = await parseFixtures(JSON.stringify({ mode: 'replace', context }), 'fixtures.json');
    const tables = ['customers', 'products', 'taskTemplates', 'costItems', 'jobCostTemplates', 'suppliers', 'jobs', 'quotes', 'settings', 'apiKeys'] as const;
    expect(tables.map((t) => [t, fixtures[t]])).toEqual(tables.map((t) => [t, []]));
    expect(fixtures.quoteTemplate).toEqual({ showSubtotals: true, showUnitPrices: true });
  });

  it('extend: settings by tool and key, later ones winning; the open quote and API keys kept where the file says nothing', async () => {
    const base = { ...DEFAULT_FIXTURES, settings: [{ toolId: 't', key: 'a', value: 1 }] };
    const unchanged = await parseFixtures('{}', 'fixtures.json', base);
    expect([unchanged.settings, unchanged.openQuote, unchanged.apiKeys]).toEqual([base.settings, base.openQuote, base.apiKeys]);
    const file = { settings: [{ toolId: 't', key: 'b', value: 2 }, { toolId: 't', key: 'a', value: 3 }], openQuote: { title: 'Bathroom' } };
    const merged = await parseFixtures(JSON.stringify(file), 'fixtures.json', base);
    expect(merged.settings).toEqual([{ toolId: 't', key: 'a', value: 3 }, { toolId: 't', key: 'b', value: 2 }]);
    expect(merged.openQuote).toEqual({ ...DEFAULT_FIXTURES.openQuote, title: 'Bathroom' });
  });

  it("a task sequence may only name its own tenant's templates", async () => {
    const foreign = { id: '3a000000-0000-4000-8000-000000000001', code: 'T_FOREIGN', name: 'Foreign', tenantId: 'elsewhere' };
    const error = await fixtureErrorOf(JSON.stringify({ taskTemplates: [foreign], products: [{ ...PRODUCT, taskSequence: ['T_FOREIGN'] }] }), 'FIXTURE_INVALID');
    expect(error.problems.map((p) => [p.pointer, p.message])).toEqual([
      ['/products/0/taskSequence/0', `task template code "T_FOREIGN" matches no task template of tenant ${DEFAULT_FIXTURES.context.tenantId}`],
    ]);
  });
});

describe('fixture problems in words', () => {
  it('unknown and missing fields, values outside a list, and what Ajv says of the rest', async () => {
    const { sku: _sku, ...noSku } = PRODUCT;
    const text = JSON.stringify({ mode: 'merge', products: [{ ...noSku, price: '1', skuu: 'X' }] });
    const error = await fixtureErrorOf(text, 'FIXTURE_INVALID');
    expect(error.problems.map((p) => [p.pointer, p.message])).toEqual([
      ['/mode', 'must be one of "extend", "replace"'],
      ['/products/0', 'missing required field "sku"'],
      ['/products/0/skuu', 'unknown field "skuu"'],
      ['/products/0/price', 'must be number'],
    ]);
  });

  it('an invalid file is named on a line of its own, with each problem indented below it', async () => {
    const error = await fixtureErrorOf('{\n  "mode": "merge"\n}', 'FIXTURE_INVALID');
    expect(error.name).toBe('FixtureError');
    expect(error.message).toBe('fixtures.json is not a valid fixture file:\n  fixtures.json:2:3 (#/mode): must be one of "extend", "replace"');
  });

  it('a file nested deeper than 512 levels is refused at the bracket that passes the limit, which the message names', async () => {
    const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
    const error = await fixtureErrorOf(`{ "mode": "merge", "deep": ${deep} }`, 'FIXTURE_SYNTAX');
    expect(locations(error)).toEqual([['', 1, 28 + 511]]);
    expect(error.problems[0]!.message).toBe('objects and arrays are nested more than 512 levels deep here; the limit is 512');
  });

  it('an unknown field with ~ or / in its name: an escaped JSON pointer, and the key located', async () => {
    const text = `{\n  "products": [\n    { "id": "${PRODUCT.id}", "sku": "A", "name": "A", "price": 1, "unit": "T_ITEM",\n      "x/y": 1, "a~b": 2 }\n  ]\n}`;
    const error = await fixtureErrorOf(text, 'FIXTURE_INVALID');
    expect(locations(error)).toEqual([
      ['/products/0/x~1y', 4, 7],
      ['/products/0/a~0b', 4, 17],
    ]);
  });

  it('refuses a context.userRole the role switch and createTestHost refuse, by the same rule', async () => {
    const { ROLE_TOKEN } = await import('../../src/dev/session.js');
    const schema = JSON.parse(await readFile(path.resolve(import.meta.dirname, '../../schemas/fixtures.schema.json'), 'utf8')) as { definitions: { context: { properties: { userRole: { pattern: string } } } } };
    expect(schema.definitions.context.properties.userRole.pattern).toBe(ROLE_TOKEN.source);
    for (const role of ['not a role!', '', '_Admin', 'H-Field', 'x'.repeat(65)]) {
      const error = await fixtureErrorOf(JSON.stringify({ context: { userRole: role } }), 'FIXTURE_INVALID');
      expect(error.problems.map((p) => [p.pointer, p.message]), role).toEqual([['/context/userRole', 'must be a role token such as H_Admin: a letter, then up to 63 letters, digits and _']]);
      await expect(createTestHost({ userRole: role })).rejects.toThrow(/userRole must be a role token/);
    }
    for (const role of ['H_Field', 'x'.repeat(64), 'Estimator2']) {
      await expect(parseFixtures(JSON.stringify({ context: { userRole: role } }), 'fixtures.json')).resolves.toMatchObject({ context: { userRole: role } });
    }
  });

  it("a quote's lines must add up to its total, and are checked as quote lines", async () => {
    const quote = { id: '80000000-0000-4000-8000-000000000901', ref: 'Q-0901', customerName: 'Fixture', status: 'Sent', date: '2025-02-01T00:00:00.000Z' };
    const lines = [{ description: 'Visit', qty: 2, unitPrice: 50, taxRate: 0.15 }];
    const text = `{\n  "quotes": [\n    ${JSON.stringify({ ...quote, total: 100, lines })}\n  ]\n}`;
    const error = await fixtureErrorOf(text, 'FIXTURE_INVALID');
    expect(error.problems.map((p) => [p.pointer, p.line, p.message])).toEqual([
      ['/quotes/0/total', 3, "total is 100, but the quote's lines add up to 115 (nett 100, tax 15); make the two agree"],
    ]);
    await expect(parseFixtures(JSON.stringify({ quotes: [{ ...quote, total: 115, lines }] }), 'fixtures.json')).resolves.toBeDefined();
    const badLine = await fixtureErrorOf(JSON.stringify({ quotes: [{ ...quote, total: 115, lines: [{ qty: 0, unitPrice: 1, taxRate: 15 }] }] }), 'FIXTURE_INVALID');
    expect(badLine.problems.map((p) => p.pointer)).toEqual(['/quotes/0/lines/0/qty', '/quotes/0/lines/0/taxRate']);
  });

  it('a syntax error keeps the parser error as its cause', async () => {
    const error = await fixtureErrorOf('{"a": }', 'FIXTURE_SYNTAX');
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });
});

describe('broken fixture files', () => {
  it('names line and column of a syntax error, even where JSON.parse gives no position', async () => {
    const error = await fixtureErrorOf('{\n  "products": [\n    {"id": }\n  ]\n}', 'FIXTURE_SYNTAX');
    expect(locations(error)).toEqual([['', 3, 12]]);
    expect(error.file).toBe('fixtures.json');
    expect(error.message).toContain('fixtures.json:3:12');
  });

  it.each([
    ['a trailing comma', '{"customers": [],\n}', 1, 17],
    ['an unclosed string', '{"mode": "extend}', 1, 10],
    ['an empty file', '', 1, 1],
    ['text after the value', '{}\n{}', 2, 1],
    ['a raw line break in a string', '{"context": {"userName": "a\nb"}}', 1, 28],
  ])('locates %s', async (_, text, line, column) => {
    const error = await fixtureErrorOf(text, 'FIXTURE_SYNTAX');
    expect(locations(error)).toEqual([['', line, column]]);
  });

  it('accepts a byte order mark', async () => {
    expect((await parseFixtures('\uFEFF{}', 'fixtures.json')).products).toEqual(DEFAULT_FIXTURES.products);
  });

  it('gives a JSON pointer and the line of every schema problem', async () => {
    const text = [
      '{',
      '  "products": [',
      '    {',
      '      "id": "not-a-guid",',
      '      "sku": "X",',
      '      "name": "X",',
      '      "price": -1,',
      '      "unit": "T_ITEM",',
      '      "skuu": "typo"',
      '    }',
      '  ],',
      '  "jobCostTemplates": [{ "id": "50000000-0000-4000-8000-0000000000AA", "code": "X", "name": "X" }],',
      '  "mode": "merge"',
      '}',
    ].join('\n');
    const error = await fixtureErrorOf(text, 'FIXTURE_INVALID');
    expect(locations(error)).toEqual(
      expect.arrayContaining([
        ['/products/0/id', 4, 7],
        ['/products/0/price', 7, 7],
        ['/products/0/skuu', 9, 7],
        ['/jobCostTemplates/0', 12, 24],
        ['/mode', 13, 3],
      ]),
    );
    expect(error.problems).toHaveLength(5);
  });

  it('needs a complete context in replace mode', async () => {
    const error = await fixtureErrorOf('{"mode": "replace"}', 'FIXTURE_INVALID');
    expect(locations(error)).toEqual([['', 1, 1]]);
    const partial = await fixtureErrorOf('{"mode": "replace", "context": {"userName": "x"}}', 'FIXTURE_INVALID');
    expect(partial.problems.map((p) => p.pointer)).toEqual(Array(5).fill('/context'));
  });

  it('finds ids used twice, settings given twice, and task sequences naming unknown templates', async () => {
    const customer = { id: '1a000000-0000-4000-8000-000000000001', name: 'A', email: 'a@x', phone: '' };
    const text = JSON.stringify(
      {
        customers: [customer, { ...customer, name: 'B' }],
        products: [{ ...PRODUCT, taskSequence: ['T_TILING', { code: 'T_NOPE', unitPrice: 5 }] }],
        settings: [
          { toolId: 't', key: 'k', value: 1 },
          { toolId: 't', key: 'k', value: 2 },
        ],
      },
      null,
      2,
    );
    const error = await fixtureErrorOf(text, 'FIXTURE_INVALID');
    expect(error.problems.map((p) => p.pointer)).toEqual(['/customers/1/id', '/settings/1', '/products/0/taskSequence/1']);
    expect(error.problems.every((p) => p.line !== null)).toBe(true);
  });

  it('says in words what each patterned field must hold, wherever its definition sits in the schema', async () => {
    const quote = { id: '8a000000-0000-4000-8000-000000000001', ref: 'Q-1', customerName: 'A', total: 1, status: 'Draft', date: 'yesterday' };
    const text = JSON.stringify({ context: { userRole: 'H Field', cultureCode: 'en_NZ' }, quotes: [quote, { ...quote, id: 'q2', date: '2025-06-11T04:45:00.000Z' }], apiKeys: [{ key: 'short' }] });
    const error = await fixtureErrorOf(text, 'FIXTURE_INVALID');
    expect(error.problems.map((p) => [p.pointer, p.message])).toEqual([
      ['/context/userRole', 'must be a role token such as H_Admin: a letter, then up to 63 letters, digits and _'],
      ['/context/cultureCode', 'must be a culture code of the form xx-XX, such as en-NZ'],
      ['/quotes/0/date', 'must be an ISO 8601 date and time, such as 2025-06-11T04:45:00.000Z'],
      ['/quotes/1/id', 'must be a GUID, such as 20000000-0000-4000-8000-000000000001'],
      ['/apiKeys/0/key', 'must be 8 to 200 letters, digits and the characters - . _ ~ + / = (it travels in an Authorization header)'],
    ]);
    // Those are all the patterns the schema has.
    const schema = await readFile(path.resolve(import.meta.dirname, '../../schemas/fixtures.schema.json'), 'utf8');
    expect(new Set([...schema.matchAll(/"pattern": ("[^"]*")/g)].map((m) => JSON.parse(m[1]!) as string)).size).toBe(5);
  });

  it('words the problems the schema cannot see', async () => {
    const customer = { id: '1a000000-0000-4000-8000-000000000001', name: 'A', email: 'a@x', phone: '' };
    const error = await fixtureErrorOf(
      JSON.stringify({
        customers: [customer, { ...customer, id: customer.id.toUpperCase() }],
        products: [{ ...PRODUCT, taskSequence: [{ code: 'T_NOPE' }] }],
        settings: [
          { toolId: 't', key: 'k', value: 1 },
          { toolId: 't', key: 'k', value: 2 },
        ],
      }),
      'FIXTURE_INVALID',
    );
    expect(error.problems.map((p) => p.message)).toEqual([
      'id 1A000000-0000-4000-8000-000000000001 is used by an earlier row of customers',
      'setting "k" of tool "t" is given twice',
      `task template code "T_NOPE" matches no task template of tenant ${DEFAULT_FIXTURES.context.tenantId}`,
    ]);
    const keys = await fixtureErrorOf(JSON.stringify({ apiKeys: [{ key: 'same-key-0001', scopes: ['POST /api/v1/quotes', 'POST /api/v1/quotes'] }, { key: 'same-key-0001' }] }), 'FIXTURE_INVALID');
    expect(keys.problems.map((p) => [p.pointer, p.message])).toEqual([
      ['/apiKeys/0/scopes/1', 'scope "POST /api/v1/quotes" is listed twice'],
      ['/apiKeys/1/key', 'this API key is given by an earlier entry of apiKeys'],
    ]);
  });

  it('a syntax error is one line, file:line:column: message', async () => {
    const error = await fixtureErrorOf('{"a": }', 'FIXTURE_SYNTAX');
    expect(error.problems).toHaveLength(1);
    expect(error.message).toBe(`fixtures.json:1:7: ${error.problems[0]!.message}`);
  });

  it('a FixtureError built by hand with several problems of another kind puts one on each line, unindented', () => {
    const problems = [
      { pointer: '', line: 1, column: 2, message: 'first' },
      { pointer: '/a', line: null, column: null, message: 'second' },
    ];
    expect(new FixtureError('FIXTURE_UNREADABLE', 'f.json', problems).message).toBe('f.json:1:2: first\nf.json (#/a): second');
  });

  describe('apiKeys', () => {
    it('keeps the built-in key and adds or replaces keys by their text in extend mode; replace mode keeps only the file\'s', async () => {
      const limited = { key: 'reports-key-001', scopes: ['GET /api/v1/quotes', 'GET /api/v1/quotes/{id}'], rateLimit: { requests: 3, windowSeconds: 2 } };
      const extended = await parseFixtures(JSON.stringify({ apiKeys: [limited, { key: DEFAULT_API_KEY, scopes: [] }] }), 'fixtures.json');
      expect(extended.apiKeys).toEqual([{ key: DEFAULT_API_KEY, scopes: [] }, limited]);
      const context = DEFAULT_FIXTURES.context;
      expect((await parseFixtures(JSON.stringify({ mode: 'replace', context }), 'fixtures.json')).apiKeys).toEqual([]);
      expect((await parseFixtures(JSON.stringify({ mode: 'replace', context, apiKeys: [limited] }), 'fixtures.json')).apiKeys).toEqual([limited]);
    });

    it('fills in every endpoint and the default rate limit for what a key leaves out', () => {
      const [key] = resolveApiKeys([{ key: DEFAULT_API_KEY }]);
      expect([...key!.scopes]).toEqual([...API_ENDPOINTS]);
      expect(key!.rateLimit).toEqual({ requests: 60, windowSeconds: 60 });
      expect(DEFAULT_API_RATE_LIMIT).toEqual({ requests: 60, windowSeconds: 60 });
    });

    it('names the scopes exactly as the schema allows them', async () => {
      const schema = JSON.parse(await readFile(path.resolve(import.meta.dirname, '../../schemas/fixtures.schema.json'), 'utf8')) as {
        definitions: { apiKey: { properties: { scopes: { items: { enum: string[] } } } } };
      };
      expect(schema.definitions.apiKey.properties.scopes.items.enum).toEqual([...API_ENDPOINTS]);
    });

    it('reports a bad key, an unknown scope, a bad rate limit, a key given twice and a scope listed twice, each at its place', async () => {
      const text = JSON.stringify(
        {
          apiKeys: [
            { key: 'short' },
            { key: 'has spaces in it' },
            { key: 'good-key-0001', scopes: ['GET /api/v1/jobs'], rateLimit: { requests: 0, windowSeconds: 1.5 } },
            { key: 'good-key-0002', rateLimit: { requests: 5 }, scope: [] },
          ],
        },
        null,
        2,
      );
      const error = await fixtureErrorOf(text, 'FIXTURE_INVALID');
      expect(error.problems.map((p) => p.pointer)).toEqual([
        '/apiKeys/0/key',
        '/apiKeys/1/key',
        '/apiKeys/2/scopes/0',
        '/apiKeys/2/rateLimit/requests',
        '/apiKeys/2/rateLimit/windowSeconds',
        '/apiKeys/3/scope',
        '/apiKeys/3/rateLimit',
      ]);
      expect(error.problems[0]!.message).toContain('Authorization header');
      expect(error.problems[2]!.message).toContain('"GET /api/v1/customers"');
      expect(error.problems.every((p) => p.line !== null)).toBe(true);

      const twice = await fixtureErrorOf(
        JSON.stringify({ apiKeys: [{ key: 'same-key-0001' }, { key: 'same-key-0001', scopes: ['POST /api/v1/quotes', 'POST /api/v1/quotes'] }] }),
        'FIXTURE_INVALID',
      );
      expect(twice.problems.map((p) => p.pointer)).toEqual(['/apiKeys/1/key', '/apiKeys/1/scopes/1']);
    });
  });

  describe('on disk', () => {
    let folder = '';
    beforeAll(async () => {
      folder = await mkdtemp(path.join(tmpdir(), 'pipeline-fixtures-'));
    });
    afterAll(async () => {
      await rm(folder, { recursive: true, force: true });
    });

    it('loads a good file', async () => {
      const file = path.join(folder, 'good.json');
      await writeFile(file, JSON.stringify({ products: [PRODUCT] }));
      expect((await loadFixtureFile(file)).products.at(-1)).toEqual(PRODUCT);
    });

    it('names the file in every error', async () => {
      const file = path.join(folder, 'bad.json');
      await writeFile(file, '{"products": [{"id": 1}]}');
      const error = await loadFixtureFile(file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FixtureError);
      expect((error as FixtureError).file).toBe(file);
      expect((error as FixtureError).message).toContain(`${file}:1:16 (#/products/0/id)`);
    });

    it('reports a missing file as FIXTURE_UNREADABLE', async () => {
      const error = await loadFixtureFile(path.join(folder, 'missing.json')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FixtureError);
      expect((error as FixtureError).code).toBe('FIXTURE_UNREADABLE');
    });

    it('says "file not found" for a missing file, and the system\'s words otherwise', async () => {
      const missing = path.join(folder, 'missing.json');
      const error = (await loadFixtureFile(missing).catch((e: unknown) => e)) as FixtureError;
      expect(error.problems).toEqual([{ pointer: '', line: null, column: null, message: 'file not found' }]);
      expect(error.message).toBe(`${missing}: file not found`);
      expect((error.cause as NodeJS.ErrnoException).code).toBe('ENOENT');
      const folderError = (await loadFixtureFile(folder).catch((e: unknown) => e)) as FixtureError;
      expect(folderError.code).toBe('FIXTURE_UNREADABLE');
      expect(folderError.problems[0]!.message).toBe('it is a folder, not a regular file; give the path of a JSON file');
      expect(folderError.cause).toBeInstanceOf(NotRegularFileError);
    });
  });
});

describe('a catalogue of 100,000 rows', () => {
  /** A GUID per table letter and row number, so ids never collide between tables. */
  const guid = (table: string, n: number) => `${table}${n.toString(16).padStart(7, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

  /** 60,000 products (every tenth with a task sequence), 30,000 customers and 10,000 quotes. */
  function catalogue(): { products: object[]; customers: object[]; quotes: object[] } {
    const products = Array.from({ length: 60_000 }, (_, n) => ({
      id: guid('b', n),
      sku: `SKU-${n}`,
      name: `Product ${n}`,
      price: n % 1000,
      unit: 'T_ITEM',
      ...(n % 10 === 0 ? { taskSequence: ['T_DEFAULT_INSTALLATION_TASK'] } : {}),
    }));
    const customers = Array.from({ length: 30_000 }, (_, n) => ({ id: guid('c', n), name: `Customer ${n}`, email: `c${n}@example.nz`, phone: '' }));
    const quotes = Array.from({ length: 10_000 }, (_, n) => ({ id: guid('d', n), ref: `Q-${n}`, customerName: `Customer ${n}`, total: n, status: 'Draft', date: '2025-06-11T04:45:00.000Z' }));
    return { products, customers, quotes };
  }

  // Loading used to compare every row with every other: 10,000 rows took seconds, 100,000 hours.
  // npm run bench times it; here it is enough that it finishes and loses nothing.
  it('loads whole: every row kept in order, built-in rows replaced in place by id in any case', async () => {
    const file = catalogue();
    const replaced = { id: DEFAULT_FIXTURES.customers[2]!.id.toUpperCase(), name: 'Replaced', email: 'r@example.nz', phone: '' };
    file.customers.splice(15_000, 0, replaced);
    const fixtures = await parseFixtures(JSON.stringify(file), 'catalogue.json');
    expect(fixtures.products).toHaveLength(DEFAULT_FIXTURES.products.length + 60_000);
    expect(fixtures.products.slice(DEFAULT_FIXTURES.products.length)).toEqual(file.products);
    expect(fixtures.customers).toHaveLength(DEFAULT_FIXTURES.customers.length + 30_000);
    expect(fixtures.customers[2]).toEqual(replaced);
    expect(fixtures.customers.slice(DEFAULT_FIXTURES.customers.length)).toEqual(file.customers.filter((row) => row !== replaced));
    expect(fixtures.quotes.slice(DEFAULT_FIXTURES.quotes.length)).toEqual(file.quotes);
  });

  it('still finds an id used twice, in any case, and a task sequence naming no template, however far apart', async () => {
    const file = catalogue();
    file.customers[29_999] = { ...file.customers[29_999], id: (file.customers[3] as { id: string }).id.toUpperCase() };
    file.products[59_990] = { ...file.products[59_990], taskSequence: ['T_NO_SUCH_TEMPLATE'] };
    const error = await fixtureErrorOf(JSON.stringify(file), 'FIXTURE_INVALID');
    expect(error.problems.map((problem) => [problem.pointer, problem.message])).toEqual([
      ['/customers/29999/id', `id ${guid('c', 3).toUpperCase()} is used by an earlier row of customers`],
      ['/products/59990/taskSequence/0', `task template code "T_NO_SUCH_TEMPLATE" matches no task template of tenant ${DEFAULT_FIXTURES.context.tenantId}`],
    ]);
  });
});

describe('a fixture file full of errors', () => {
  const badRow = (n: number) => ({ id: `not-a-guid-${n}`, sku: `S${n}`, name: 'x', price: 'free', unit: 'T_ITEM' });

  // Every row wrong: collecting the errors used to take time in the square of the rows (40,000
  // rows, two minutes) and listed all 80,000. npm run bench times it (fixtures-errors-40k).
  it('lists the first problems, in order, and counts the rest', async () => {
    const file = { products: Array.from({ length: 40_000 }, (_, n) => badRow(n)) };
    const error = await fixtureErrorOf(JSON.stringify(file, null, 1), 'FIXTURE_INVALID');
    expect(error.problems).toHaveLength(MAX_FIXTURE_PROBLEMS);
    expect(error.more).toBe(80_000 - MAX_FIXTURE_PROBLEMS);
    expect(error.problems.slice(0, 2).map((problem) => [problem.pointer, problem.line])).toEqual([
      ['/products/0/id', 4],
      ['/products/0/price', 7],
    ]);
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(1 + MAX_FIXTURE_PROBLEMS + 1);
    expect(lines.at(-1)).toBe('  … and 79,950 more problems (fix these first: they are often the same mistake)');
  });

  it('numbers the rows of a long table as they are in the file, however it is checked', async () => {
    const rows: object[] = Array.from({ length: 4_000 }, (_, n) => ({ ...PRODUCT, id: `2a000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}` }));
    rows[1_500] = { ...rows[1_500], price: -1 };
    rows[3_999] = { ...rows[3_999], extra: 1 };
    const text = JSON.stringify({ products: rows }, null, 2);
    const error = await fixtureErrorOf(text, 'FIXTURE_INVALID');
    expect(locations(error)).toEqual([
      ['/products/1500/price', positionOfText(text, '"price": -1').line, 7],
      ['/products/3999/extra', positionOfText(text, '"extra"').line, 7],
    ]);
    expect(error.more).toBe(0);
  });

  it('pauses between steps of rows, so that dev answers requests while it checks', async () => {
    let pauses = 0;
    const value = { products: Array.from({ length: 5_500 }, (_, n) => badRow(n)) };
    const error = await validateFixtureValue(value, () => JSON.stringify(value), 'f.json', async () => void pauses++).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FixtureError);
    expect(pauses).toBe(6);
  });

  it('bounds the problems the schema cannot see too', async () => {
    const rows = Array.from({ length: 3_000 }, () => PRODUCT);
    const error = await fixtureErrorOf(JSON.stringify({ products: rows }), 'FIXTURE_INVALID');
    expect(error.problems).toHaveLength(MAX_FIXTURE_PROBLEMS);
    expect(error.more).toBe(2_999 - MAX_FIXTURE_PROBLEMS);
  });
});

describe('scanJson', () => {
  it('records where each value starts, members at their key', () => {
    const text = '{"a": [1, {"b~/c": true}], "d": null}';
    const scan = scanJson(text);
    expect(scan.ok).toBe(true);
    if (!scan.ok) return;
    expect(Object.fromEntries(scan.offsets)).toEqual({ '': 0, '/a': 1, '/a/0': 7, '/a/1': 10, '/a/1/b~0~1c': 11, '/d': 27 });
  });

  it('stops once every pointer asked for is placed, members still at their key', () => {
    const text = '{"a": [1, {"b": true}], "d": null}';
    const scan = scanJson(text, { stopOnceFound: new Set(['/a/1/b', '/a/0']) });
    expect(scan).toMatchObject({ ok: true, stopped: true });
    if (!scan.ok) return;
    expect(scan.offsets.get('/a/1/b')).toBe(11);
    expect(scan.offsets.has('/d')).toBe(false);
    // A pointer the text does not have: the scan runs to the end.
    expect(scanJson(text, { stopOnceFound: new Set(['/a/1/b', '/x']) })).toMatchObject({ ok: true, offsets: expect.any(Map) });
    expect(scanJson(text, { stopOnceFound: new Set(['/x']) })).not.toHaveProperty('stopped');
  });

  it('agrees with JSON.parse on what is valid', () => {
    const samples = ['1', '-0.5e+3', '"\\u00e9\\n"', '[]', '{}', ' [true, false, null] ', '01', '1.', '.5', '+1', 'tru', '"\\x"', '[1,]', '{"a" 1}', 'NaN', '"\t"'];
    for (const sample of samples) {
      let parses = true;
      try {
        JSON.parse(sample);
      } catch {
        parses = false;
      }
      expect([sample, scanJson(sample).ok]).toEqual([sample, parses]);
    }
  });
});
