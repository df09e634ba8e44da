import type { BridgeCreateQuoteResult } from '../bridge/types.js';
import { describeValue, isRecord, readList, RecordReader, type CallChecks, type Place } from './arguments.js';
import {
  centsToNumber,
  computeLineAmounts,
  decimalOf,
  decimalToNumber,
  MAX_SAFE_CENTS,
  percentToFraction,
  sumAmounts,
  type MoneyTotals,
} from './money.js';
import { resolveSupplier, sameId, type CustomerRow, type TenantData } from './tenant-data.js';

/*
 * quotes.create (platform-spec §2 Create-quote request, line and result; §4.2 rules; §7.4):
 * checking the request, matching or creating the customer, numbering and saving the quote.
 */

export const MAX_CREATE_LINES = 200;
export const MAX_CREATE_QTY = 10_000;
export const MAX_CREATE_UNIT_PRICE = 1_000_000;

const REQUEST_FIELDS = ['jobId', 'customerName', 'customerEmail', 'customerPhone', 'upsertByEmail', 'title', 'quoteRef', 'lines'] as const;
const LINE_FIELDS = ['description', 'productCode', 'qty', 'unitPrice', 'taxRate', 'supplierRef'] as const;

export interface CreatedQuoteLine {
  /** The catalogue product a REST line names by `skuId`; null for quotes.create lines, which have no such field. */
  skuId: string | null;
  description: string | null;
  productCode: string | null;
  qty: number;
  unitPrice: number;
  /** As sent: quotes.create takes fractions and does not normalise. */
  taxRate: number;
  supplierRef: string;
  supplierName: string;
  nett: number;
  tax: number;
  total: number;
}

/** A quote made by quotes.create, with everything the bridge result leaves out. */
export interface CreatedQuote {
  id: string;
  ref: string;
  url: string;
  status: 'Draft';
  date: string;
  title: string | null;
  jobId: string | null;
  /** The customer matched or created by upsertByEmail, else null. */
  customerId: string | null;
  customerName: string;
  customerEmail: string | null;
  customerPhone: string | null;
  lines: CreatedQuoteLine[];
  totals: MoneyTotals;
}

interface LineDraft extends Omit<CreatedQuoteLine, 'nett' | 'tax' | 'total'> {
  nettCents: bigint;
  taxCents: bigint;
}

export interface QuoteRequestDraft {
  /** The tenant's customer named by id (POST /api/v1/quotes), or null. */
  customerId: string | null;
  jobId: string | null;
  customerName: string | null;
  customerEmail: string | null;
  customerPhone: string | null;
  upsertByEmail: boolean;
  title: string | null;
  quoteRef: string | null;
  lines: LineDraft[];
}

export interface CreateQuoteContext {
  data: TenantData;
  tenantId: string;
}

/** qty, unitPrice and taxRate of a created quote's line, checked against platform-spec §4.2 rule 2. */
export interface LineNumbers {
  qty: number;
  unitPrice: number;
  taxRate: number;
}

/**
 * Reads a line's numbers by the rules of quotes.create, which POST /api/v1/quotes shares.
 * `taxRateDefault` is used when the line has no taxRate; left out, taxRate is required.
 */
export function readLineNumbers(reader: RecordReader, checks: CallChecks, taxRateDefault?: number): LineNumbers | undefined {
  const qty = reader.requiredNumber('qty', { min: 0, minExclusive: true, max: MAX_CREATE_QTY });
  const unitPrice = reader.requiredNumber('unitPrice', { min: 0, max: MAX_CREATE_UNIT_PRICE });
  // A negative rate is no fraction at all; the spec lists no such failure, but no platform could
  // take it either, so the stricter reading rejects it.
  const taxRate = taxRateDefault === undefined ? reader.requiredNumber('taxRate', { min: 0 }) : (reader.optionalNumber('taxRate', { min: 0 }) ?? taxRateDefault);
  if (qty === undefined || unitPrice === undefined || taxRate === undefined) return undefined;
  if (taxRate > 1) {
    const fraction = decimalToNumber(percentToFraction(decimalOf(taxRate)));
    checks.warn('TAX_RATE_LOOKS_LIKE_PERCENT', reader.at('taxRate'), `is ${taxRate}, which quotes.create takes as a fraction (${taxRate} × 100%); for ${taxRate}% send ${fraction}`);
  }
  return { qty, unitPrice, taxRate };
}

/** A line's nett and tax in cents, as decisions.md computes them (no discount in quotes.create). */
export function priceLine({ qty, unitPrice, taxRate }: LineNumbers): { nettCents: bigint; taxCents: bigint } {
  return computeLineAmounts({ unitPrice, qty, discountPercent: 0, taxRate: decimalOf(taxRate) });
}

/** How many lines a created quote may have (platform-spec §4.2 rule 1). */
export const CREATE_LINE_LIMITS = { min: 1, max: MAX_CREATE_LINES, maxRule: `a quote takes at most ${MAX_CREATE_LINES}` };

/** Records a problem when the lines' total could not be held exactly. */
export function checkQuoteTotal(lines: readonly { nettCents: bigint; taxCents: bigint }[], checks: CallChecks, place: Place): void {
  let total = 0n;
  for (const line of lines) total += line.nettCents + line.taxCents;
  if (total > MAX_SAFE_CENTS) checks.problem('OUT_OF_RANGE', place, 'the quote total is too large to be represented exactly');
}

function readLine(raw: unknown, index: number, checks: CallChecks, context: CreateQuoteContext): LineDraft | undefined {
  if (!isRecord(raw)) {
    checks.problem('INVALID_TYPE', { path: `lines[${index}]`, index, field: null }, `must be a quote line object, got ${describeValue(raw)}`);
    return undefined;
  }
  const reader = new RecordReader(raw, checks, 'lines', index);
  reader.warnUnknownFields(LINE_FIELDS);
  const numbers = readLineNumbers(reader, checks);
  const description = reader.optionalString('description');
  const productCode = reader.optionalString('productCode');
  const supplierRef = reader.optionalString('supplierRef');
  if (numbers === undefined) return undefined;
  if (description === undefined || productCode === undefined || supplierRef === undefined) return undefined;

  const supplier = resolveSupplier(context.data, context.tenantId, supplierRef);
  if (supplier.fallbackReason !== null) {
    checks.warn('SUPPLIER_NOT_RESOLVED', reader.at('supplierRef'), `${describeValue(supplierRef)} fell back to the Self supplier: ${supplier.fallbackReason}`);
  }
  return {
    skuId: null,
    description,
    productCode,
    ...numbers,
    supplierRef: supplier.supplier.reference,
    supplierName: supplier.supplier.name,
    ...priceLine(numbers),
  };
}

/** Checks a quotes.create request, collecting every problem, into a draft ready to save. */
export function readCreateQuoteRequest(raw: unknown, checks: CallChecks, context: CreateQuoteContext): QuoteRequestDraft | undefined {
  if (!isRecord(raw)) {
    checks.problem('INVALID_TYPE', { path: 'request', index: null, field: null }, `must be a create-quote request object, got ${describeValue(raw)}`);
    return undefined;
  }
  const reader = new RecordReader(raw, checks);
  reader.warnUnknownFields(REQUEST_FIELDS);
  const strings = {
    jobId: reader.optionalString('jobId'),
    customerName: reader.optionalString('customerName'),
    customerEmail: reader.optionalString('customerEmail'),
    customerPhone: reader.optionalString('customerPhone'),
    title: reader.optionalString('title'),
    quoteRef: reader.optionalString('quoteRef'),
  };

  let upsertByEmail = false;
  const upsert = reader.raw('upsertByEmail');
  if (upsert === undefined || upsert === null) {
    checks.warn('UPSERT_BY_EMAIL_MISSING', reader.at('upsertByEmail'), "is missing; the platform's type requires it, so send false explicitly");
  } else if (typeof upsert === 'boolean') {
    upsertByEmail = upsert;
  } else {
    checks.problem('INVALID_TYPE', reader.at('upsertByEmail'), `must be a boolean, got ${describeValue(upsert)}`);
  }
  if (upsertByEmail && (strings.customerEmail === null || strings.customerEmail?.trim() === '')) {
    checks.problem('REQUIRED', reader.at('customerEmail'), 'is required when upsertByEmail is true');
  }

  const lines = readList(reader.raw('lines'), reader.at('lines'), checks, CREATE_LINE_LIMITS, (raw, index) => readLine(raw, index, checks, context)) ?? [];
  checkQuoteTotal(lines, checks, reader.at('lines'));

  if (strings.jobId) {
    const job = context.data.jobs.find((j) => j.tenantId === context.tenantId && j.active && sameId(j.id, strings.jobId!));
    if (job === undefined) checks.warn('JOB_NOT_FOUND', reader.at('jobId'), `${describeValue(strings.jobId)} is not an active job of this tenant`);
  }
  if (checks.failed) return undefined;
  const blankToNull = (text: string | null | undefined) => (text === undefined || text === null || text.trim() === '' ? null : text);
  return {
    customerId: null,
    jobId: blankToNull(strings.jobId),
    customerName: blankToNull(strings.customerName),
    customerEmail: blankToNull(strings.customerEmail),
    customerPhone: blankToNull(strings.customerPhone),
    upsertByEmail,
    title: blankToNull(strings.title),
    quoteRef: blankToNull(strings.quoteRef),
    lines,
  };
}

/** The next running quote number: one above the highest `Q-<n>` reference the tenant has. */
export function nextQuoteNumber(refs: readonly string[]): number {
  let highest = 1000;
  for (const ref of refs) {
    const match = /^Q-(\d+)$/.exec(ref);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return highest + 1;
}

export interface SaveQuoteServices {
  generateId: () => string;
  now: () => Date;
  /** The reference to give a quote that brings none. */
  nextRef: () => string;
}

/**
 * Saves a checked request: matches the customer by e-mail (ignoring case) or creates one when
 * upsertByEmail asks for it, and adds the quote to the tenant's quote list.
 */
export function saveQuote(
  draft: QuoteRequestDraft,
  context: CreateQuoteContext,
  services: SaveQuoteServices,
): { result: BridgeCreateQuoteResult; quote: CreatedQuote } {
  let customer: CustomerRow | undefined;
  if (draft.customerId !== null) {
    const id = draft.customerId;
    customer = context.data.customers.find((c) => c.tenantId === context.tenantId && sameId(c.id, id));
  } else if (draft.upsertByEmail && draft.customerEmail !== null) {
    const email = draft.customerEmail.trim().toLowerCase();
    customer = context.data.customers.find((c) => c.tenantId === context.tenantId && c.email.trim().toLowerCase() === email);
    if (customer === undefined) {
      customer = {
        id: services.generateId(),
        name: draft.customerName ?? draft.customerEmail.trim(),
        email: draft.customerEmail.trim(),
        phone: draft.customerPhone ?? '',
        tenantId: context.tenantId,
      };
      context.data.customers.push(customer);
    }
  }

  const id = services.generateId();
  const ref = draft.quoteRef ?? services.nextRef();
  const lines = draft.lines.map(({ nettCents, taxCents, ...line }) => ({
    ...line,
    nett: centsToNumber(nettCents),
    tax: centsToNumber(taxCents),
    total: centsToNumber(nettCents + taxCents),
  }));
  const totals = sumAmounts(draft.lines);
  const quote: CreatedQuote = {
    id,
    ref,
    url: `/quotes/${id}`,
    status: 'Draft',
    date: services.now().toISOString(),
    title: draft.title,
    jobId: draft.jobId,
    customerId: customer?.id ?? null,
    customerName: customer?.name ?? draft.customerName ?? '',
    customerEmail: customer?.email ?? draft.customerEmail,
    customerPhone: customer?.phone ?? draft.customerPhone,
    lines,
    totals,
  };
  context.data.quotes.push({
    id,
    ref,
    customerName: quote.customerName,
    total: totals.total,
    status: 'Draft',
    date: quote.date,
    tenantId: context.tenantId,
  });
  return { result: { id, ref, total: totals.total, url: quote.url }, quote };
}
