import type { BridgeError, BridgeErrorCode, BridgeProblem, BridgeProblemCode } from '../bridge/types.js';
import { groupDigits } from '../core/format-bytes.js';

/*
 * Every code below is public API: tools, tests and the dev server's UI match on them. Add new
 * codes freely, never rename or reuse one. docs/errors.md documents each of them, and a
 * test keeps that table and these catalogues in step.
 */

/** What each error code means; the code a bridge call rejects with. */
export const ERROR_CODES = {
  UNKNOWN_METHOD: 'No bridge method has this name.',
  METHOD_NOT_AVAILABLE: 'The method exists, but not in the SDK version the host is acting as.',
  TOOL_TYPE_NOT_ALLOWED: 'This type of tool may not call the method (a standalone tool changing the open quote).',
  INVALID_ARGUMENT: 'The arguments are wrong; details lists every problem. Nothing was changed.',
  BATCH_REJECTED: 'quotes.addLines or quotes.addSections refused the whole batch; details lists every problem. Nothing was changed.',
  CALL_TOO_LARGE: 'The call is larger than the emulated host takes in one call (5,000,000 bytes as JSON). Nothing was changed.',
  INTERNAL_ERROR: 'A fault in the emulator, not in the tool. Please report it.',
} as const satisfies Record<BridgeErrorCode, string>;

/** What each problem code in an error's details means. */
export const PROBLEM_CODES = {
  REQUIRED: 'A required value is missing or null.',
  INVALID_TYPE: 'A value has the wrong type (text for a number, NaN, Infinity, a line that is not an object).',
  NOT_AN_INTEGER: 'A whole number was expected.',
  OUT_OF_RANGE: 'A number is outside its allowed range.',
  EMPTY_LIST: 'A list that needs at least one item is empty.',
  TOO_MANY_ITEMS: 'A list holds more items than allowed.',
  UNKNOWN_LINE_TYPE: 'lineType is not product, task, cost or jobcost.',
  UNKNOWN_UNIT: 'unit is not T_ITEM, T_SQUARE_METRE or T_LINEAR_METRE.',
  LINKED_ITEM_NOT_FOUND: 'linkedItemId (or productId) matches no row of the table its lineType points to.',
  LINKED_ITEM_INACTIVE: 'linkedItemId (or productId) points to an inactive row.',
  BLANK_SECTION_NAME: 'A declared section has an empty or blank name.',
  UNKNOWN_ID: 'customerId or skuId of a quote created over the REST API names no customer or product of the tenant.',
} as const satisfies Record<BridgeProblemCode, string>;

/**
 * What each warning code means. Warnings never change what a call does; they point at things
 * that work here but are fragile or surprising on the real platform.
 */
export const WARNING_CODES = {
  DEPRECATED: 'A deprecated method or field was used (costItems.list, lineType cost, productId).',
  UNKNOWN_FIELD: 'An argument has a field the bridge does not know; it is ignored (often a typo).',
  FIELD_IGNORED: 'A known field was sent where it has no effect.',
  OPTION_NOT_AVAILABLE: 'An option is newer than the SDK version the host is acting as; it is ignored, as an older host would.',
  TAX_RATE_LOOKS_LIKE_PERCENT: 'A taxRate comes to more than 100% once read: above 1 in quotes.create and the REST API (a fraction, so 15 means 1500%), above 100 in quotes.addLines (a percentage, so 1500 means 1500%).',
  TAX_RATE_IS_ONE: 'quotes.addLines got taxRate 1, which it reads as 100% (a fraction); for 1% send 0.01.',
  SECTION_NAME_TRUNCATED: 'A section name was longer than 100 characters and was cut.',
  SECTION_NOTES_TRUNCATED: 'Section notes were longer than 2000 characters and were cut.',
  SECTION_NOTES_BLANK: 'Section notes hold only spaces or line breaks: they count as notes (the first non-empty value wins) and print as a blank line.',
  SUPPLIER_NOT_RESOLVED: 'supplierRef matched no active supplier, so the line went to the Self supplier (T_SELF).',
  PRODUCT_CODE_NOT_LINKED: 'A product line names a known SKU but sends no id, so it stays free text and gets no task injection.',
  UPSERT_BY_EMAIL_MISSING: 'quotes.create got no upsertByEmail; the platform declares it required, so send false explicitly.',
  JOB_NOT_FOUND: 'quotes.create got a jobId that is not an active job of the tenant.',
} as const;

export type WarningCode = keyof typeof WARNING_CODES;

/** Something a call did that works but deserves the author's attention. */
export interface BridgeWarning {
  code: WarningCode;
  method: string;
  /** Where in the arguments, written like {@link BridgeProblem.path}, or null. */
  path: string | null;
  message: string;
}

/** A warning in the words errors use for their problems: `lines[2].taxRate: is 1, … [TAX_RATE_IS_ONE]`. */
export function describeWarning(warning: BridgeWarning): string {
  return `${warning.path === null ? '' : `${warning.path}: `}${warning.message} [${warning.code}]`;
}

/** The error every bridge method of the model rejects with: the BridgeError tools are told to expect. */
export class BridgeModelError extends Error implements BridgeError {
  override readonly name = 'BridgeModelError';
  readonly code: BridgeErrorCode;
  readonly method: string;
  readonly details: BridgeProblem[];

  constructor(code: BridgeErrorCode, method: string, message: string, details: BridgeProblem[] = [], options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.method = method;
    this.details = details;
  }

  /** The shape a dev server sends to the browser, where the SDK shim rebuilds a BridgeError. */
  toJSON(): { name: string; code: BridgeErrorCode; method: string; message: string; details: BridgeProblem[] } {
    return { name: this.name, code: this.code, method: this.method, message: this.message, details: this.details };
  }
}

/** Rejects a call because of the problems found in its arguments, naming every one of them. */
export function rejectArguments(code: 'INVALID_ARGUMENT' | 'BATCH_REJECTED', method: string, problems: BridgeProblem[]): BridgeModelError {
  const what = code === 'BATCH_REJECTED' ? 'rejected the whole batch, nothing was changed' : 'was refused';
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const list = problems.map((p) => `${p.path}: ${p.message} [${p.code}]`).join('; ');
  return new BridgeModelError(code, method, `${method} ${what} (${count}): ${list}`, problems);
}

/** Codes of the errors raised while reading a project's fixture file. */
export const FIXTURE_ERROR_CODES = {
  FIXTURE_UNREADABLE: 'The fixture file could not be read (missing, a folder, no permission).',
  FIXTURE_SYNTAX: 'The fixture file is not valid JSON; the error gives line and column.',
  FIXTURE_INVALID: 'The fixture file is JSON but breaks the fixture schema or refers to rows that do not exist; each problem gives a JSON pointer and, when known, line and column.',
} as const;

export type FixtureErrorCode = keyof typeof FIXTURE_ERROR_CODES;

/** One thing wrong in a fixture file. */
export interface FixtureProblem {
  /** JSON pointer to the offending value, such as `/products/2/price`; empty for the whole file. */
  pointer: string;
  /** 1-based position in the file, when it could be found. */
  line: number | null;
  column: number | null;
  message: string;
}

/**
 * One line per problem, `file:line:column (#pointer): message`, as editors and terminals link them,
 * and a last line counting the problems not listed.
 */
function formatFixtureProblems(code: FixtureErrorCode, file: string, problems: readonly FixtureProblem[], more: number): string {
  const lines = problems.map((p) => {
    const position = p.line === null ? '' : `:${p.line}:${p.column ?? 1}`;
    const pointer = p.pointer === '' ? '' : ` (#${p.pointer})`;
    return `${file}${position}${pointer}: ${p.message}`;
  });
  if (more > 0) lines.push(`… and ${groupDigits(more)} more ${more === 1 ? 'problem' : 'problems'} (fix these first: they are often the same mistake)`);
  return code === 'FIXTURE_INVALID' ? [`${file} is not a valid fixture file:`, ...lines.map((l) => `  ${l}`)].join('\n') : lines.join('\n');
}

/** A project's fixture file cannot be used. The message names the file and every location. */
export class FixtureError extends Error {
  override readonly name = 'FixtureError';
  readonly code: FixtureErrorCode;
  readonly file: string;
  /** The problems listed: the first ones found, at most MAX_FIXTURE_PROBLEMS. */
  readonly problems: FixtureProblem[];
  /** How many more problems were found than are listed. */
  readonly more: number;

  constructor(code: FixtureErrorCode, file: string, problems: FixtureProblem[], options?: ErrorOptions & { more?: number }) {
    super(formatFixtureProblems(code, file, problems, options?.more ?? 0), options);
    this.code = code;
    this.file = file;
    this.problems = problems;
    this.more = options?.more ?? 0;
  }
}
