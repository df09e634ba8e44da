import type { BridgeCreateQuoteRequest } from 'pipeline-tool/bridge';

/*
 * The new-quote form as typed, and the request made from it. The host checks the request (1 to
 * 200 lines, qty above 0 and at most 10000, unit price from 0 to 1000000, an e-mail when finding
 * the customer by e-mail) and the form shows what it says, so the rules live in one place.
 */

export interface LineForm {
  description: string;
  qty: string;
  unitPrice: string;
  /** In percent, as people think of tax; the bridge wants a fraction. */
  taxRate: string;
}

export interface QuoteForm {
  customerName: string;
  customerEmail: string;
  upsertByEmail: boolean;
  title: string;
  lines: LineForm[];
}

export const emptyLine = (): LineForm => ({ description: '', qty: '1', unitPrice: '', taxRate: '15' });
export const emptyQuote = (): QuoteForm => ({ customerName: '', customerEmail: '', upsertByEmail: false, title: '', lines: [emptyLine()] });

export function toQuoteRequest(form: QuoteForm): BridgeCreateQuoteRequest {
  return {
    customerName: textOrNull(form.customerName),
    customerEmail: textOrNull(form.customerEmail),
    // The platform declares upsertByEmail as required, so it is always sent, false included.
    upsertByEmail: form.upsertByEmail,
    title: textOrNull(form.title),
    lines: form.lines.map((line) => ({
      description: textOrNull(line.description),
      qty: numberOf(line.qty),
      unitPrice: numberOf(line.unitPrice),
      // quotes.create wants a fraction (0.15 for 15%).
      taxRate: numberOf(line.taxRate) / 100,
    })),
  };
}

/** Where a problem the host names sits in the form: `lines[1].qty` is the second line's quantity. */
export function problemPlace(path: string): { line: number | null; field: string } {
  const line = /^lines\[(\d+)\]\.(\w+)$/.exec(path);
  return line ? { line: Number(line[1]), field: line[2] ?? '' } : { line: null, field: path };
}

/** `lines[1].qty` → "Line 2, qty"; any other path as the host wrote it. */
export function describePath(path: string): string {
  const line = /^lines\[(\d+)\](?:\.(\w+))?$/.exec(path);
  return line ? `Line ${Number(line[1]) + 1}${line[2] ? `, ${line[2]}` : ''}` : path;
}

/** A number field as typed: empty is not zero, it is no number at all, and the host says so. */
function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

function textOrNull(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}
