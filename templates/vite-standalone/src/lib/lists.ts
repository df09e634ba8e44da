import type { BridgeCustomerDto, BridgeJobDto, BridgeListOptions, BridgePagedResult, BridgeQuoteDto, PipelineSdk } from 'pipeline-tool/bridge';
import type { Formatters } from './format';
import type { ListName } from './preferences';

/** How one list is fetched and shown: every list answers a page at a time. */
export interface ListView<T> {
  /** Plural, as in "12 customers". */
  noun: string;
  load(bridge: PipelineSdk, options: BridgeListOptions): Promise<BridgePagedResult<T>>;
  /** Numbers align right; neither wraps in a narrow panel. */
  columns: { heading: string; value(row: T, format: Formatters): string; style?: 'number' | 'nowrap' }[];
}

const customers: ListView<BridgeCustomerDto> = {
  noun: 'customers',
  load: (bridge, options) => bridge.customers.list(options),
  columns: [
    { heading: 'Name', value: (customer) => customer.name },
    { heading: 'E-mail', value: (customer) => customer.email },
    { heading: 'Phone', value: (customer) => customer.phone, style: 'nowrap' },
  ],
};

const jobs: ListView<BridgeJobDto> = {
  noun: 'jobs',
  load: (bridge, options) => bridge.jobs.list(options),
  columns: [
    { heading: 'Job', value: (job) => job.ref, style: 'nowrap' },
    { heading: 'Customer', value: (job) => job.customerName },
    { heading: 'Status', value: (job) => job.status },
  ],
};

const quotes: ListView<BridgeQuoteDto> = {
  noun: 'quotes',
  load: (bridge, options) => bridge.quotes.list(options),
  columns: [
    { heading: 'Quote', value: (quote) => quote.ref, style: 'nowrap' },
    { heading: 'Customer', value: (quote) => quote.customerName },
    { heading: 'Date', value: (quote, format) => format.date(quote.date), style: 'nowrap' },
    { heading: 'Status', value: (quote) => quote.status },
    { heading: 'Total', value: (quote, format) => format.money(quote.total), style: 'number' },
  ],
};

/** Each view by its tab; the rows it loads are the ones its columns read. */
export const VIEWS: Record<ListName, ListView<unknown>> = { customers, jobs, quotes };

/** How many pages a result spans; an empty list is one empty page. */
export function pageCount(result: BridgePagedResult<unknown>): number {
  return Math.max(1, Math.ceil(result.totalCount / result.pageSize));
}
