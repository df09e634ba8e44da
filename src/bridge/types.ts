/*
 * Types for `window.pipeline`, the bridge a Pipeline host gives to an embedded tool (SDK 2.5.0).
 *
 * This file must stand alone: it is shipped as `pipeline-tool/bridge` and also copied verbatim
 * into scaffolded tool projects as `pipeline.d.ts`, where plain JavaScript uses it through
 * `/// <reference path="./pipeline.d.ts" />` and `import('./pipeline').BridgeProductDto`.
 * Keep it free of imports and of runtime code.
 */

// ---------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------

/**
 * The kind of tool, as declared by `type` in the tool's manifest.
 * - `standalone`: a sidebar panel opened from the tool launcher. It can read data and create
 *   quotes, but it cannot touch a quote that is open in the editor.
 * - `quoting_extension`: opened from inside a quote. On top of everything a standalone tool can
 *   do, it may call `quotes.addLines` and `quotes.addSections` to change that open quote.
 */
export type BridgeToolType = 'standalone' | 'quoting_extension';

/**
 * What an added quote line is, which also decides which table `linkedItemId` points into.
 * - `product` (the default): a product (SKU). If that product has a task sequence, the host
 *   appends the sequence's task lines after it.
 * - `task`: a task template; the line is the task itself.
 * - `cost`: a cost-of-business item. Deprecated: send `jobcost` instead.
 * - `jobcost`: a job cost template, or an ad-hoc job cost when `linkedItemId` is left out.
 */
export type BridgeLineType = 'product' | 'task' | 'cost' | 'jobcost';

/** Unit-of-measure tokens accepted on an added quote line. `T_ITEM` is used when none is given. */
export type BridgeUnit = 'T_ITEM' | 'T_SQUARE_METRE' | 'T_LINEAR_METRE';

/** How a job cost template is classified. */
export type BridgeJobCostType = 'T_ADHOC' | 'T_PURCHASED_ITEM' | 'T_THIRD_PARTY_COST' | 'T_EXPENSE';

/** Lifecycle states of a quote. */
export type BridgeQuoteStatus = 'Draft' | 'Sent' | 'Accepted' | 'Rejected' | 'Expired';

// ---------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------

/**
 * One page of a list. Every bridge list method answers with this wrapper, even when the whole
 * list fits on one page.
 */
export interface BridgePagedResult<T> {
  /** The rows on this page. */
  items: T[];
  /** How many rows the whole list holds, before paging. */
  totalCount: number;
  /** The page these rows come from, counting from 1. */
  page: number;
  /** The page size the rows were cut with. */
  pageSize: number;
}

/** Who is using the tool, in which tenant and culture. */
export interface BridgeContextDto {
  /** Display name of the signed-in user. */
  userName: string;
  /** E-mail address of the signed-in user. */
  userEmail: string;
  /** Role token of the signed-in user, for example `H_Admin` or `H_Field`. */
  userRole: string;
  /** Display name of the tenant (the customer organisation using the platform). */
  tenantName: string;
  /** Identifier of the tenant. */
  tenantId: string;
  /** Culture of the user in `xx-XX` form, for example `en-NZ`. Format numbers and dates with it. */
  cultureCode: string;
}

/** A customer of the tenant. */
export interface BridgeCustomerDto {
  /** GUID of the customer. */
  id: string;
  name: string;
  email: string;
  phone: string;
}

/** A product (SKU) from the tenant's catalogue. */
export interface BridgeProductDto {
  /** GUID of the product. Send it as `linkedItemId` on a `product` line. */
  id: string;
  /**
   * Human-readable product code. Unlike `id`, it is the same in every environment, so look
   * products up by SKU and then use the `id` you found.
   */
  sku: string;
  name: string;
  /** Retail sell price per unit. */
  price: number;
  /** Unit-of-measure token, for example `T_ITEM`. */
  unit: string;
}

/** A task template of the tenant. */
export interface BridgeTaskTemplateDto {
  /** GUID of the template. Send it as `linkedItemId` on a `task` line. */
  id: string;
  /** Stable token naming the template, for example `T_DEFAULT_INSTALLATION_TASK`. */
  code: string;
  name: string;
}

/**
 * A cost-of-business item.
 * @deprecated Cost items are superseded by job cost templates: use {@link BridgeJobCostTemplateDto}
 * from `jobCostTemplates.list` and lines of type `jobcost`.
 */
export interface BridgeCostItemDto {
  /** GUID of the item. Send it as `linkedItemId` on a `cost` line. */
  id: string;
  /** Stable code of the item. */
  code: string;
  name: string;
  /** Type token, for example `T_FINANCIAL` or `T_TRAVEL`. */
  type: string;
}

/** A job cost template: how a cost such as shipping or disposal is classified and booked. */
export interface BridgeJobCostTemplateDto {
  /** GUID of the template. Send it as `linkedItemId` on a `jobcost` line. */
  id: string;
  /** The template's cost code, for example `SHIPPING`, `DISPOSAL`, `TRAVEL`, `CHECK-MEASURE`. */
  code: string;
  /** The template's cost name. */
  name: string;
  type: BridgeJobCostType;
}

/** A quote, as listed by `quotes.list`. */
export interface BridgeQuoteDto {
  /** GUID of the quote. */
  id: string;
  /** The quote's reference, as people see it. */
  ref: string;
  customerName: string;
  total: number;
  status: BridgeQuoteStatus;
  /** When the quote was made, as an ISO 8601 date and time. */
  date: string;
}

/** An active job of the tenant. */
export interface BridgeJobDto {
  /** GUID of the job. */
  id: string;
  /** The job's reference, as people see it. */
  ref: string;
  customerName: string;
  /** GUID of the job's customer. */
  customerIdGuid: string;
  status: string;
}

/** What `quotes.create` needs to make a new quote. */
export interface BridgeCreateQuoteRequest {
  /** GUID of a job to attach the quote to. */
  jobId?: string | null;
  /** Name of the customer, as shown on the quote. */
  customerName?: string | null;
  /** The customer's e-mail address. Required when `upsertByEmail` is true. */
  customerEmail?: string | null;
  customerPhone?: string | null;
  /**
   * When true, the host looks the customer up by `customerEmail` and creates one if none is
   * found. The platform's own type declares this field as required even though its description
   * calls it optional, so always send it, `false` included.
   */
  upsertByEmail: boolean;
  title?: string | null;
  /** Your own reference for the quote; the host numbers it when this is left out. */
  quoteRef?: string | null;
  /** The quote's lines: at least 1 and at most 200. */
  lines: BridgeQuoteLineRequest[];
}

/** One line of a `quotes.create` request. */
export interface BridgeQuoteLineRequest {
  description?: string | null;
  /** Product code (SKU) of the line. */
  productCode?: string | null;
  /** Quantity: greater than 0 and at most 10000. */
  qty: number;
  /** Sell price per unit: from 0 to 1000000. */
  unitPrice: number;
  /**
   * Tax rate as a fraction: send 0.15 for 15%. Unlike `quotes.addLines`, this method does not
   * accept percentages, so 15 would mean 1500%.
   */
  taxRate: number;
  /**
   * Supplier of the line, matched against the active suppliers' references first and their
   * names second. When it is missing or matches nothing, the line goes to the tenant's own
   * Self supplier (`T_SELF`).
   */
  supplierRef?: string | null;
}

/** What `quotes.create` answers with. */
export interface BridgeCreateQuoteResult {
  /** GUID of the new quote. */
  id: string;
  /** Reference of the new quote. */
  ref: string;
  /** Total of the new quote, tax included. */
  total: number;
  /** Link to the new quote, relative to the host's address, when the host can give one. */
  url?: string;
}

/**
 * One line for `quotes.addLines`, merged into the quote that is open in the editor.
 *
 * The host rejects the whole batch, and changes nothing, if any line has an unknown `lineType`
 * or a `linkedItemId` that is not an active row of the table its `lineType` points to.
 */
export interface BridgeAddLineDto {
  /** The line's name on the quote. */
  description?: string | null;
  /** Human-readable SKU or code; kept as the line's work-object code. */
  productCode?: string | null;
  /** Quantity; must be greater than 0. */
  qty: number;
  /**
   * Sell price per unit with your markup already in it; the host adds no markup of its own.
   * Must not be negative.
   */
  unitPrice: number;
  /**
   * Buy price per unit. When given, the line buys at `costPrice` and sells at `unitPrice`;
   * when left out, it buys and sells at `unitPrice`.
   */
  costPrice?: number | null;
  /**
   * Tax rate, either as a percentage (15) or as a fraction (0.15); the host normalises it.
   * A value above 1 is read as a percentage, so 1 itself means 100%. Must not be negative.
   */
  taxRate: number;
  /** Zone or room label; kept in the line's second free-text field. */
  location?: string | null;
  /** Configuration detail; kept in the line's first free-text field. */
  specification?: string | null;
  /** Unit of measure; `T_ITEM` when left out. */
  unit?: BridgeUnit | null;
  /**
   * Lines of one call that carry the same key share a group id. Lines without a key get
   * group id 0 (no group).
   */
  groupKey?: string | null;
  /**
   * What the line is; `product` when left out. `cost` is deprecated: use `jobcost`.
   * Any other value rejects the whole batch.
   */
  lineType?: BridgeLineType | null;
  /**
   * GUID of the row this line stands for, in the table chosen by `lineType`: a product, a task
   * template, a cost item or a job cost template. It must be an active row, or the whole batch
   * is rejected. A `jobcost` line without it is an ad-hoc job cost; with it, the template
   * supplies the cost code and ledger routing while your `unitPrice` still sets the price.
   */
  linkedItemId?: string | null;
  /**
   * Section heading the line is grouped under. At most 100 characters (longer names are cut,
   * not rejected); surrounding spaces are trimmed. Lines without a section are shown last,
   * under "Ungrouped".
   */
  section?: string | null;
  /**
   * Show the section to the customer as one row with its name and total, hiding its lines
   * there (the editor, job costing and the grand total still see every line). Part of the
   * section's identity: the same name with and without `summaryOnly` gives two sections.
   * Anything but `true` counts as false, and it never causes a rejection.
   */
  summaryOnly?: boolean | null;
  /**
   * Plain-text notes printed under the section heading, line breaks kept, at most 2000
   * characters. The first line of a section that carries notes sets them; later notes for the
   * same section are ignored. Markup is not interpreted.
   */
  sectionNotes?: string | null;
  /** Discount in percent, from 0 to 100: the line's nett is sell × qty × (1 − discountPercent / 100). */
  discountPercent?: number | null;
  /**
   * Supplier of the line, matched without regard to case against the active suppliers'
   * references first and their names second. When it is missing or matches nothing, the line
   * goes to the tenant's own Self supplier (`T_SELF`). After the quote becomes a job, the
   * supplier decides purchase orders and supplier invoices.
   */
  supplierRef?: string | null;
  /** Third free-text field of the line. The four fields become the job cost's four free-text lines when the quote becomes a job. */
  freeTextField3?: string | null;
  /** Fourth free-text field of the line. */
  freeTextField4?: string | null;
  /**
   * GUID of a product; used only when `linkedItemId` is left out and `lineType` is `product`
   * or left out.
   * @deprecated Send the GUID as `linkedItemId` with `lineType: 'product'`. Kept for tools
   * written against SDK 2.1.2 and earlier.
   */
  productId?: string | null;
}

/**
 * A section declared on its own, for `quotes.addSections` or the `sections` option of
 * `quotes.addLines`. Declared sections are added after the sections the lines create. One that
 * matches an existing section (same name and `summaryOnly`) is not added twice; it only gives
 * that section notes if it has none yet.
 * @since 2.5.0
 */
export interface BridgeSectionDto {
  /**
   * Section heading, at most 100 characters (longer names are cut). A blank name rejects the
   * whole call, lines included.
   */
  name: string;
  /** Collapse the section to one row for the customer; part of the section's identity. */
  summaryOnly?: boolean | null;
  /**
   * Plain-text notes under the heading, line breaks kept, at most 2000 characters. A section
   * with notes but no lines shows its name and notes without totals; one with neither is not
   * shown to the customer.
   */
  notes?: string | null;
}

// ---------------------------------------------------------------------------------------------
// Method options
// ---------------------------------------------------------------------------------------------

/** Paging for list methods. */
export interface BridgeListOptions {
  /** Page to return, counting from 1. Defaults to 1. */
  page?: number;
  /**
   * Rows per page. There is no upper limit: to build a SKU lookup, ask for every product in
   * one large page.
   */
  pageSize?: number;
}

/** Paging, or a filter by code, for the template lists. */
export interface BridgeCodeListOptions extends BridgeListOptions {
  /**
   * Only the active rows with these codes. When given, paging is ignored and every match comes
   * back on one page. Use it to turn codes you know into the GUIDs to send as `linkedItemId`.
   */
  codes?: string[];
}

/** Options of `quotes.addLines`. */
export interface BridgeAddLinesOptions {
  /**
   * Sections to declare along with the lines; they are applied after the lines.
   * @since 2.5.0; older hosts ignore this option.
   */
  sections?: BridgeSectionDto[];
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/**
 * Codes of the errors `pipeline-tool dev` rejects with. The platform itself documents no error
 * codes, so use these while developing and testing, and in production show the message rather
 * than branching on the code.
 */
export type BridgeErrorCode =
  /** No bridge method has this name. */
  | 'UNKNOWN_METHOD'
  /** The method exists, but not in the SDK version the host is acting as. */
  | 'METHOD_NOT_AVAILABLE'
  /** This kind of tool may not call the method (a standalone tool calling quotes.addLines). */
  | 'TOOL_TYPE_NOT_ALLOWED'
  /** The arguments are wrong; `details` lists every problem. Nothing was changed. */
  | 'INVALID_ARGUMENT'
  /** quotes.addLines or quotes.addSections refused the whole batch; `details` lists every problem. Nothing was changed. */
  | 'BATCH_REJECTED'
  /** The call's arguments are larger than the emulated host takes in one call (5,000,000 bytes as JSON). Nothing was changed. */
  | 'CALL_TOO_LARGE'
  /** A fault in the emulator itself, not in the tool. */
  | 'INTERNAL_ERROR';

/** Codes of the single problems listed in a {@link BridgeError}'s `details`. */
export type BridgeProblemCode =
  /** A required value is missing or null. */
  | 'REQUIRED'
  /** A value has the wrong type: text where a number belongs, NaN, Infinity, a non-object line. */
  | 'INVALID_TYPE'
  /** A whole number was expected. */
  | 'NOT_AN_INTEGER'
  /** A number is outside its allowed range. */
  | 'OUT_OF_RANGE'
  /** A list that needs at least one item is empty. */
  | 'EMPTY_LIST'
  /** A list holds more items than allowed. */
  | 'TOO_MANY_ITEMS'
  /** A line's `lineType` is not product, task, cost or jobcost. */
  | 'UNKNOWN_LINE_TYPE'
  /** A line's `unit` is not one of the unit tokens. */
  | 'UNKNOWN_UNIT'
  /** A `linkedItemId` (or legacy `productId`) matches no row of the table its line type points to. */
  | 'LINKED_ITEM_NOT_FOUND'
  /** A `linkedItemId` (or legacy `productId`) points to an inactive row. */
  | 'LINKED_ITEM_INACTIVE'
  /** A declared section has an empty or blank name. */
  | 'BLANK_SECTION_NAME'
  /** An id names no row of the tenant: `customerId` or `skuId` of a quote created over the REST API. */
  | 'UNKNOWN_ID';

/** One thing wrong with the arguments of a rejected call. */
export interface BridgeProblem {
  code: BridgeProblemCode;
  /**
   * Where the problem is, written like JavaScript: `lines[3].qty`, `sections[0].name`,
   * `customerEmail`, `page`. Paths start inside the argument (the request, the options, the
   * line array); the section declarations of `quotes.addLines` are reported as `sections[i]`.
   */
  path: string;
  /** Position of the offending line or section in its array, or null when not in an array. */
  index: number | null;
  /** The offending field, such as `qty`, or null when the item as a whole is wrong. */
  field: string | null;
  /** What is wrong, for people. */
  message: string;
}

/**
 * The error a bridge call rejects with. `pipeline-tool dev` fills in `code`, `method` and, for
 * argument problems, `details` listing everything that is wrong at once.
 */
export interface BridgeError extends Error {
  code: BridgeErrorCode;
  /** The bridge method that failed, such as `quotes.addLines`. */
  method?: string;
  /** Every problem found, when the arguments were at fault. */
  details?: BridgeProblem[];
}

// ---------------------------------------------------------------------------------------------
// The bridge
// ---------------------------------------------------------------------------------------------

/**
 * `window.pipeline`: the host's methods for an embedded tool, as of SDK 2.5.0.
 *
 * Every method returns a promise; the SDK waits for the host to be ready, so there is no need to
 * poll. Members marked `@since` are missing on older hosts: test for them before calling
 * (`if (window.pipeline?.quotes.addSections) …`). Sign-in comes from the user's session; a tool
 * never needs an API key.
 */
export interface PipelineSdk {
  /** SDK version of the host, such as `2.5.0`. */
  readonly version: string;

  context: {
    /** The signed-in user, the tenant and the culture. */
    get(): Promise<BridgeContextDto>;
  };

  customers: {
    /** The tenant's customers, one page at a time (page 1 of 50 rows unless told otherwise). */
    list(options?: BridgeListOptions): Promise<BridgePagedResult<BridgeCustomerDto>>;
  };

  products: {
    /**
     * The product catalogue, one page at a time. For SKU lookups, fetch it once with a large
     * `pageSize` and map the uppercased `sku` to `id`.
     */
    list(options?: BridgeListOptions): Promise<BridgePagedResult<BridgeProductDto>>;
  };

  taskTemplates: {
    /**
     * The tenant's active task templates, paged, or only those with the given `codes`.
     * @since 2.1.0
     */
    list(options?: BridgeCodeListOptions): Promise<BridgePagedResult<BridgeTaskTemplateDto>>;
  };

  costItems: {
    /**
     * The tenant's active cost items, paged, or only those with the given `codes`.
     * @since 2.1.0
     * @deprecated Use `jobCostTemplates.list` and lines of type `jobcost`.
     */
    list(options?: BridgeCodeListOptions): Promise<BridgePagedResult<BridgeCostItemDto>>;
  };

  jobCostTemplates: {
    /**
     * The tenant's active job cost templates in order of cost code, paged, or only those with
     * the given `codes`.
     * @since 2.2.0
     */
    list(options?: BridgeCodeListOptions): Promise<BridgePagedResult<BridgeJobCostTemplateDto>>;
  };

  jobs: {
    /** The tenant's active jobs, one page at a time. */
    list(options?: BridgeListOptions): Promise<BridgePagedResult<BridgeJobDto>>;
  };

  quotes: {
    /** The tenant's quotes, one page at a time. */
    list(options?: BridgeListOptions): Promise<BridgePagedResult<BridgeQuoteDto>>;
    /**
     * Create and save a new quote. Any tool type may call it. It is refused when `lines` is
     * empty or holds more than 200 lines, when a `qty` is not above 0 or exceeds 10000, when a
     * `unitPrice` is below 0 or above 1000000, or when `upsertByEmail` is true without a
     * `customerEmail`.
     */
    create(request: BridgeCreateQuoteRequest): Promise<BridgeCreateQuoteResult>;
    /**
     * Merge lines into the quote open in the editor; the user then saves the quote as usual.
     * Only a `quoting_extension` may call it: a standalone tool gets an error. It is all or
     * nothing: one unknown `lineType`, one `linkedItemId` that is not an active row, or one
     * declared section with a blank name rejects every line and section of the call.
     * @param options.sections since 2.5.0; older hosts ignore it.
     */
    addLines(lines: BridgeAddLineDto[], options?: BridgeAddLinesOptions): Promise<void>;
    /**
     * Declare sections on the quote open in the editor, without lines; the same as `addLines`
     * with no lines and these sections. Only a `quoting_extension` may call it.
     * @since 2.5.0
     */
    addSections(sections: BridgeSectionDto[]): Promise<void>;
  };

  settings: {
    /**
     * A value this tool stored for the current tenant, or null when there is none. Use it for
     * tool preferences: browser storage does not survive in the sandbox. Do not keep the
     * quote being built here.
     * @since 2.3.0
     */
    get<T = unknown>(key: string): Promise<T | null>;
    /**
     * Store a JSON value for this tool and the current tenant.
     * @since 2.3.0
     */
    set(key: string, value: unknown): Promise<void>;
  };
}

declare global {
  interface Window {
    /** The host bridge; undefined when the tool is opened outside a Pipeline host. */
    pipeline?: PipelineSdk;
  }
}
