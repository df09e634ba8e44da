import type {
  BridgeCostItemDto,
  BridgeCustomerDto,
  BridgeJobCostTemplateDto,
  BridgeJobDto,
  BridgePagedResult,
  BridgeProductDto,
  BridgeQuoteDto,
  BridgeTaskTemplateDto,
} from '../bridge/types.js';
import { describeValue, isRecord, readList, RecordReader, type CallChecks } from './arguments.js';
import type { CostItemRow, CustomerRow, JobCostTemplateRow, JobRow, ProductRow, QuoteRow, TaskTemplateRow } from './tenant-data.js';

/*
 * The list methods (platform-spec §4.2 list rules 1–4, decisions.md list defaults): paging,
 * filtering by code, and turning host rows into the records tools receive.
 */

export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 50;
/** Not a platform limit: a guard against walking absurdly long code lists. */
export const MAX_CODES = 10_000;

export type ListRequest = { kind: 'page'; page: number; pageSize: number } | { kind: 'codes'; codes: string[] };

/**
 * Reads list options. `withCodes` is true for the template lists, the only ones that filter by
 * code; for them a `codes` array replaces paging entirely.
 */
export function readListOptions(options: unknown, withCodes: boolean, checks: CallChecks): ListRequest | undefined {
  if (options === undefined || options === null) return { kind: 'page', page: DEFAULT_PAGE, pageSize: DEFAULT_PAGE_SIZE };
  if (!isRecord(options)) {
    checks.problem('INVALID_TYPE', { path: 'options', index: null, field: null }, `must be an object, got ${describeValue(options)}`);
    return undefined;
  }
  const reader = new RecordReader(options, checks);
  reader.warnUnknownFields(withCodes ? ['codes', 'page', 'pageSize'] : ['page', 'pageSize']);
  if (withCodes && reader.has('codes')) {
    for (const field of ['page', 'pageSize']) {
      if (reader.has(field)) checks.warn('FIELD_IGNORED', reader.at(field), 'is ignored when codes is given: every match comes back');
    }
    return readCodes(reader.raw('codes'), checks);
  }
  const page = reader.optionalPositiveInteger('page');
  const pageSize = reader.optionalPositiveInteger('pageSize');
  if (page === undefined || pageSize === undefined) return undefined;
  return { kind: 'page', page: page ?? DEFAULT_PAGE, pageSize: pageSize ?? DEFAULT_PAGE_SIZE };
}

function readCodes(value: unknown, checks: CallChecks): ListRequest | undefined {
  const limits = { max: MAX_CODES, maxRule: `the emulator takes at most ${MAX_CODES}` };
  const codes = readList(value, { path: 'codes', index: null, field: null }, checks, limits, (code, index) => {
    if (typeof code === 'string') return code;
    checks.problem('INVALID_TYPE', { path: `codes[${index}]`, index, field: null }, `must be a string, got ${describeValue(code)}`);
    return undefined;
  });
  return codes === undefined || checks.failed ? undefined : { kind: 'codes', codes };
}

/**
 * One page of rows, or every row whose code is listed (exact match, each row once, in list
 * order). With codes the result is a single page holding every match.
 */
export function pageRows<Row, Dto>(rows: readonly Row[], request: ListRequest, toDto: (row: Row) => Dto, codeOf?: (row: Row) => string): BridgePagedResult<Dto> {
  if (request.kind === 'codes') {
    const wanted = new Set(request.codes);
    const items = rows.filter((row) => codeOf !== undefined && wanted.has(codeOf(row))).map(toDto);
    return { items, totalCount: items.length, page: 1, pageSize: items.length };
  }
  const start = (request.page - 1) * request.pageSize;
  return {
    items: rows.slice(start, start + request.pageSize).map(toDto),
    totalCount: rows.length,
    page: request.page,
    pageSize: request.pageSize,
  };
}

// Records carry exactly the fields of platform-spec §2: tenant, active flags and task sequences
// stay inside the host.

export const toCustomerDto = ({ id, name, email, phone }: CustomerRow): BridgeCustomerDto => ({ id, name, email, phone });
export const toProductDto = ({ id, sku, name, price, unit }: ProductRow): BridgeProductDto => ({ id, sku, name, price, unit });
export const toTaskTemplateDto = ({ id, code, name }: TaskTemplateRow): BridgeTaskTemplateDto => ({ id, code, name });
export const toCostItemDto = ({ id, code, name, type }: CostItemRow): BridgeCostItemDto => ({ id, code, name, type });
export const toJobCostTemplateDto = ({ id, code, name, type }: JobCostTemplateRow): BridgeJobCostTemplateDto => ({ id, code, name, type });
export const toJobDto = ({ id, ref, customerName, customerIdGuid, status }: JobRow): BridgeJobDto => ({ id, ref, customerName, customerIdGuid, status });
export const toQuoteDto = ({ id, ref, customerName, total, status, date }: QuoteRow): BridgeQuoteDto => ({ id, ref, customerName, total, status, date });

/** Orders by cost code, comparing UTF-16 units so the order never depends on the machine's locale. */
export function compareCodes(a: { code: string }, b: { code: string }): number {
  return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
}

/** Newest first; quotes of the same moment keep the order they were added in, newest first. */
export function newestFirst(quotes: readonly QuoteRow[]): QuoteRow[] {
  return quotes
    .map((quote, order) => ({ quote, order, time: Date.parse(quote.date) || 0 }))
    .sort((a, b) => b.time - a.time || b.order - a.order)
    .map(({ quote }) => quote);
}
