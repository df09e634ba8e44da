import { describeValue, isRecord, readList, RecordReader, type CallChecks, type Place } from '../arguments.js';
import {
  checkQuoteTotal,
  CREATE_LINE_LIMITS,
  priceLine,
  readLineNumbers,
  type CreatedQuote,
  type CreatedQuoteLine,
  type CreateQuoteContext,
  type QuoteRequestDraft,
} from '../create-quote.js';
import { centsToNumber, sumAmounts, type MoneyTotals } from '../money.js';
import type { FixtureQuote } from '../fixtures.js';
import { resolveSupplier, sameId, type QuoteRow, type TenantData } from '../tenant-data.js';

/*
 * POST /api/v1/quotes and GET /api/v1/quotes/{id} on the model's side (platform-spec §4.1,
 * decisions.md REST API v1). A REST quote is checked by the rules quotes.create uses for its lines
 * and saved by the same code, so that both kinds land in one quote list.
 */

export const API_CREATE_QUOTE = 'POST /api/v1/quotes';

const REQUEST_FIELDS = ['customerId', 'lines'];
const LINE_FIELDS = ['skuId', 'qty', 'unitPrice', 'taxRate'];
const OWNER = 'the REST API';

/** A quote as GET /api/v1/quotes/{id} and POST /api/v1/quotes return it. */
export interface ApiQuote {
  id: string;
  ref: string;
  status: string;
  date: string;
  /** The customer the quote was made for, when it is known by id; null for the fixtures' quotes. */
  customerId: string | null;
  customerName: string;
  title: string | null;
  jobId: string | null;
  total: number;
  lines: CreatedQuoteLine[];
  /** Null for a quote of the fixtures that gives no lines, only its total. */
  totals: MoneyTotals | null;
}

function readId(reader: RecordReader, checks: CallChecks, field: string): string | undefined {
  const value = reader.raw(field);
  if (value === undefined || value === null || value === '') {
    checks.problem('REQUIRED', reader.at(field), 'is required');
    return undefined;
  }
  if (typeof value !== 'string') {
    checks.problem('INVALID_TYPE', reader.at(field), `must be a string, got ${describeValue(value)}`);
    return undefined;
  }
  return value;
}

function unknownId(checks: CallChecks, place: Place, id: string, what: string): undefined {
  checks.problem('UNKNOWN_ID', place, `${describeValue(id)} is not the id of a ${what} of this tenant`);
  return undefined;
}

/**
 * Checks a POST /api/v1/quotes body, `{ customerId, lines: [{ skuId, qty, unitPrice, taxRate? }] }`,
 * collecting every problem. A line takes its description and code from the product, goes to the
 * Self supplier, and has taxRate 0 unless it sends one (a fraction, as in quotes.create).
 */
export function readApiQuoteRequest(raw: unknown, checks: CallChecks, context: CreateQuoteContext): QuoteRequestDraft | undefined {
  if (!isRecord(raw)) {
    checks.problem('INVALID_TYPE', { path: '', index: null, field: null }, `the body must be a JSON object, got ${describeValue(raw)}`);
    return undefined;
  }
  const reader = new RecordReader(raw, checks);
  reader.warnUnknownFields(REQUEST_FIELDS, OWNER);
  const customerId = readId(reader, checks, 'customerId');
  const customer =
    customerId === undefined
      ? undefined
      : (context.data.customers.find((c) => c.tenantId === context.tenantId && sameId(c.id, customerId)) ?? unknownId(checks, reader.at('customerId'), customerId, 'customer'));
  const self = resolveSupplier(context.data, context.tenantId, null).supplier;

  const lines = readList(reader.raw('lines'), reader.at('lines'), checks, CREATE_LINE_LIMITS, (item, index) => {
    if (!isRecord(item)) {
      checks.problem('INVALID_TYPE', { path: `lines[${index}]`, index, field: null }, `must be a quote line object, got ${describeValue(item)}`);
      return undefined;
    }
    const line = new RecordReader(item, checks, 'lines', index);
    line.warnUnknownFields(LINE_FIELDS, OWNER);
    const skuId = readId(line, checks, 'skuId');
    const product =
      skuId === undefined
        ? undefined
        : (context.data.products.find((p) => p.tenantId === context.tenantId && sameId(p.id, skuId)) ?? unknownId(checks, line.at('skuId'), skuId, 'product'));
    const numbers = readLineNumbers(line, checks, 0);
    if (product === undefined || numbers === undefined) return undefined;
    return {
      skuId: product.id,
      description: product.name,
      productCode: product.sku,
      ...numbers,
      supplierRef: self.reference,
      supplierName: self.name,
      ...priceLine(numbers),
    };
  });
  if (lines !== undefined) checkQuoteTotal(lines, checks, reader.at('lines'));
  if (customer === undefined || lines === undefined || checks.failed) return undefined;
  return {
    customerId: customer.id,
    jobId: null,
    customerName: customer.name,
    customerEmail: customer.email,
    customerPhone: customer.phone,
    upsertByEmail: false,
    title: null,
    quoteRef: null,
    lines,
  };
}

export function toApiQuote(quote: CreatedQuote): ApiQuote {
  return {
    id: quote.id,
    ref: quote.ref,
    status: quote.status,
    date: quote.date,
    customerId: quote.customerId,
    customerName: quote.customerName,
    title: quote.title,
    jobId: quote.jobId,
    total: quote.totals.total,
    lines: structuredClone(quote.lines),
    totals: { ...quote.totals },
  };
}

/** The lines of a fixture quote, priced as quotes.create prices its lines, and their totals. */
function priceFixtureLines(row: QuoteRow, data: TenantData): { lines: CreatedQuoteLine[]; totals: MoneyTotals } {
  const priced = (row.lines ?? []).map((line) => {
    const supplier = resolveSupplier(data, row.tenantId, line.supplierRef ?? null).supplier;
    return {
      skuId: line.skuId ?? null,
      description: line.description ?? null,
      productCode: line.productCode ?? null,
      qty: line.qty,
      unitPrice: line.unitPrice,
      taxRate: line.taxRate,
      supplierRef: supplier.reference,
      supplierName: supplier.name,
      ...priceLine(line),
    };
  });
  const lines = priced.map(({ nettCents, taxCents, ...line }) => ({
    ...line,
    nett: centsToNumber(nettCents),
    tax: centsToNumber(taxCents),
    total: centsToNumber(nettCents + taxCents),
  }));
  return { lines, totals: sumAmounts(priced) };
}

/**
 * A quote of the fixtures, with its lines priced and its totals, when the fixtures give it lines
 * (the built-in quotes all have some); without lines, only its total is known.
 */
export function fixtureQuoteToApi(row: QuoteRow, data: TenantData): ApiQuote {
  const { id, ref, status, date, customerName, total } = row;
  const header = { id, ref, status, date, customerId: null, customerName, title: null, jobId: null, total };
  if (row.lines === undefined || row.lines.length === 0) return { ...header, lines: [], totals: null };
  return { ...header, ...priceFixtureLines(row, data) };
}

/**
 * What the schema cannot check in a fixture file's quotes: lines whose total is not the quote's
 * `total`, which a list and the quote itself would then disagree on.
 */
export function fixtureQuoteProblems(quotes: readonly FixtureQuote[]): { pointer: string; message: string }[] {
  const problems: { pointer: string; message: string }[] = [];
  quotes.forEach((quote, index) => {
    if (quote.lines === undefined || quote.lines.length === 0) return;
    const totals = sumAmounts(quote.lines.map((line) => priceLine(line)));
    if (totals.total !== quote.total) {
      problems.push({
        pointer: `/quotes/${index}/total`,
        message: `total is ${quote.total}, but the quote's lines add up to ${totals.total} (nett ${totals.nett}, tax ${totals.tax}); make the two agree`,
      });
    }
  });
  return problems;
}
