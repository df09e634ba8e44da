// @ts-check

/*
 * A standalone Pipeline tool: a sidebar panel that browses the tenant's customers, jobs and
 * quotes, and creates a quote from a short form.
 *
 * The host runs the tool in a sandboxed iframe, which shapes a few habits below:
 * - alert(), confirm() and prompt() are silently ignored there, so every message is part of the page.
 * - Browser storage is not dependable at the sandbox's opaque origin; preferences go through
 *   pipeline.settings instead.
 * - Data from the host and from the user reaches the page only as text (textContent), never as
 *   HTML, and goes to the host as plain text.
 */

/**
 * @typedef {import('../pipeline').PipelineSdk} PipelineSdk
 * @typedef {import('../pipeline').BridgeContextDto} BridgeContextDto
 * @typedef {import('../pipeline').BridgeListOptions} BridgeListOptions
 * @typedef {import('../pipeline').BridgeCustomerDto} BridgeCustomerDto
 * @typedef {import('../pipeline').BridgeJobDto} BridgeJobDto
 * @typedef {import('../pipeline').BridgeQuoteDto} BridgeQuoteDto
 * @typedef {import('../pipeline').BridgeCreateQuoteRequest} BridgeCreateQuoteRequest
 * @typedef {import('../pipeline').BridgeQuoteLineRequest} BridgeQuoteLineRequest
 * @typedef {import('../pipeline').BridgeProblem} BridgeProblem
 */

/** @typedef {'customers' | 'jobs' | 'quotes'} ListName */
/** @typedef {ListName | 'new-quote'} TabName */
/** @typedef {{ tab: TabName, pageSize: number }} Preferences */
/** @typedef {ReturnType<typeof formattersFor>} Formatters */
/** @typedef {'number' | 'nowrap'} CellStyle  numbers align right; neither wraps in a narrow panel */

/**
 * What the running tool holds.
 * @typedef {object} App
 * @property {PipelineSdk} bridge
 * @property {Formatters} format
 * @property {Preferences} preferences
 * @property {Record<ListName, number>} pages  current page of each list
 * @property {number} request  counts list requests, so that a slow answer never replaces a newer one
 */

/**
 * How one list is fetched and shown.
 * @template T
 * @typedef {object} ListView
 * @property {string} noun  plural, as in "12 customers"
 * @property {(bridge: PipelineSdk, options: BridgeListOptions) => Promise<import('../pipeline').BridgePagedResult<T>>} load
 * @property {Array<{ heading: string, value: (row: T, format: Formatters) => string, style?: CellStyle }>} columns
 */

const PREFERENCES_KEY = 'preferences';
const PAGE_SIZES = [5, 10, 25, 50];
/** @type {Preferences} */
const DEFAULT_PREFERENCES = { tab: 'customers', pageSize: 10 };
/** @type {readonly TabName[]} */
const TABS = ['customers', 'jobs', 'quotes', 'new-quote'];

/** @type {ListView<BridgeCustomerDto>} */
const customersView = {
  noun: 'customers',
  load: (bridge, options) => bridge.customers.list(options),
  columns: [
    { heading: 'Name', value: (customer) => customer.name },
    { heading: 'E-mail', value: (customer) => customer.email },
    { heading: 'Phone', value: (customer) => customer.phone, style: 'nowrap' },
  ],
};

/** @type {ListView<BridgeJobDto>} */
const jobsView = {
  noun: 'jobs',
  load: (bridge, options) => bridge.jobs.list(options),
  columns: [
    { heading: 'Job', value: (job) => job.ref, style: 'nowrap' },
    { heading: 'Customer', value: (job) => job.customerName },
    { heading: 'Status', value: (job) => job.status },
  ],
};

/** @type {ListView<BridgeQuoteDto>} */
const quotesView = {
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

/** @type {Record<ListName, ListView<any>>} */
const VIEWS = { customers: customersView, jobs: jobsView, quotes: quotesView };

const bridge = window.pipeline;
if (bridge) {
  start(bridge).catch((error) => {
    show('starting', false);
    showMessage(element('start-error', HTMLElement), `The tool could not start: ${readBridgeError(error).message}`);
  });
} else {
  show('starting', false);
  show('outside-host', true);
}

/** @param {PipelineSdk} bridge */
async function start(bridge) {
  const [context, preferences] = await Promise.all([bridge.context.get(), loadPreferences(bridge)]);
  /** @type {App} */
  const app = {
    bridge,
    format: formattersFor(context.cultureCode),
    preferences,
    pages: { customers: 1, jobs: 1, quotes: 1 },
    request: 0,
  };
  element('who', HTMLElement).textContent = `${context.userName} · ${context.tenantName}`;

  for (const button of document.querySelectorAll('[data-tab]')) {
    button.addEventListener('click', () => selectTab(app, asTab(button.getAttribute('data-tab'))));
  }
  const pageSize = element('page-size', HTMLSelectElement);
  pageSize.value = String(app.preferences.pageSize);
  pageSize.addEventListener('change', () => {
    app.preferences.pageSize = Number(pageSize.value);
    app.pages = { customers: 1, jobs: 1, quotes: 1 };
    savePreferences(app.bridge, app.preferences);
    void showList(app);
  });
  element('page-previous', HTMLButtonElement).addEventListener('click', () => turnPage(app, -1));
  element('page-next', HTMLButtonElement).addEventListener('click', () => turnPage(app, 1));
  setUpQuoteForm(app);

  show('starting', false);
  show('app', true);
  selectTab(app, app.preferences.tab);
}


// ---------------------------------------------------------------------------------------------
// Lists with paging
// ---------------------------------------------------------------------------------------------

/**
 * @param {App} app
 * @param {TabName} tab
 */
function selectTab(app, tab) {
  for (const button of document.querySelectorAll('[data-tab]')) {
    button.setAttribute('aria-selected', String(button.getAttribute('data-tab') === tab));
  }
  show('list-panel', tab !== 'new-quote');
  show('quote-panel', tab === 'new-quote');
  if (app.preferences.tab !== tab) {
    app.preferences.tab = tab;
    savePreferences(app.bridge, app.preferences);
  }
  if (tab !== 'new-quote') void showList(app);
}

/**
 * @param {App} app
 * @param {number} step
 */
function turnPage(app, step) {
  const list = currentList(app);
  if (!list) return;
  app.pages[list] = Math.max(1, app.pages[list] + step);
  void showList(app);
}

/** @param {App} app */
function currentList(app) {
  const tab = app.preferences.tab;
  return tab === 'new-quote' ? null : tab;
}

/** @param {App} app */
async function showList(app) {
  const list = currentList(app);
  if (!list) return;
  const view = VIEWS[list];
  const page = app.pages[list];
  const request = ++app.request;
  const status = element('list-status', HTMLElement);
  status.classList.remove('error');
  status.textContent = `Loading ${view.noun}…`;
  try {
    const result = await view.load(app.bridge, { page, pageSize: app.preferences.pageSize });
    if (request !== app.request) return;
    renderTable(view, result.items, app.format);
    const pages = Math.max(1, Math.ceil(result.totalCount / result.pageSize));
    status.textContent = result.totalCount === 0 ? `No ${view.noun} yet.` : '';
    element('page-info', HTMLElement).textContent = `Page ${result.page} of ${pages} · ${result.totalCount} ${view.noun}`;
    element('page-previous', HTMLButtonElement).disabled = result.page <= 1;
    element('page-next', HTMLButtonElement).disabled = result.page >= pages;
  } catch (error) {
    if (request !== app.request) return;
    renderTable(view, [], app.format);
    status.classList.add('error');
    status.textContent = `Could not load ${view.noun}: ${readBridgeError(error).message}`;
  }
}

/**
 * @param {ListView<any>} view
 * @param {unknown[]} rows
 * @param {Formatters} format
 */
function renderTable(view, rows, format) {
  const head = element('list-head', HTMLTableRowElement);
  head.replaceChildren(...view.columns.map((column) => cell('th', column.heading, column.style)));
  const body = element('list-body', HTMLTableSectionElement);
  body.replaceChildren(
    ...rows.map((row) => {
      const tr = document.createElement('tr');
      tr.append(...view.columns.map((column) => cell('td', column.value(row, format), column.style)));
      return tr;
    }),
  );
}

/**
 * A table cell holding text: whatever the host sends is shown, never interpreted as HTML.
 * @param {'th' | 'td'} tag
 * @param {string} text
 * @param {CellStyle} [style]
 */
function cell(tag, text, style) {
  const td = document.createElement(tag);
  td.textContent = text;
  if (style) td.className = style;
  return td;
}

// ---------------------------------------------------------------------------------------------
// Creating a quote
// ---------------------------------------------------------------------------------------------

/** @param {App} app */
function setUpQuoteForm(app) {
  const form = element('quote-form', HTMLFormElement);
  const rows = element('line-rows', HTMLTableSectionElement);
  element('add-line', HTMLButtonElement).addEventListener('click', () => addLineRow());
  rows.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('.remove-line') : null;
    if (button && rows.rows.length > 1) button.closest('tr')?.remove();
  });
  // A click, not the form's submit event: the host's sandbox (no allow-forms) blocks form
  // submission before that event fires.
  element('create-quote', HTMLButtonElement).addEventListener('click', () => void createQuote(app, form));
  addLineRow();
}

function addLineRow() {
  const template = element('line-row', HTMLTemplateElement);
  element('line-rows', HTMLTableSectionElement).append(template.content.cloneNode(true));
}

/**
 * @param {App} app
 * @param {HTMLFormElement} form
 */
async function createQuote(app, form) {
  const problems = element('quote-problems', HTMLElement);
  const created = element('quote-created', HTMLElement);
  const submit = element('create-quote', HTMLButtonElement);
  show(problems, false);
  show(created, false);
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');

  const request = readQuoteForm(form);
  submit.disabled = true;
  try {
    const result = await app.bridge.quotes.create(request);
    showMessage(created, `Quote ${result.ref} was created, total ${app.format.money(result.total)}.`);
    form.reset();
    element('line-rows', HTMLTableSectionElement).replaceChildren();
    addLineRow();
    app.pages.quotes = 1;
  } catch (error) {
    showQuoteProblems(form, problems, readBridgeError(error));
  } finally {
    submit.disabled = false;
  }
}

/**
 * Reads the form as typed. The host checks the request (1 to 200 lines, qty above 0 and at most
 * 10000, unit price from 0 to 1000000, an e-mail when finding the customer by e-mail) and this
 * tool shows what it says, so the rules live in one place.
 * @param {HTMLFormElement} form
 * @returns {BridgeCreateQuoteRequest}
 */
function readQuoteForm(form) {
  const rows = [...element('line-rows', HTMLTableSectionElement).rows];
  return {
    customerName: textOrNull(field(form, 'customerName').value),
    customerEmail: textOrNull(field(form, 'customerEmail').value),
    // The platform declares upsertByEmail as required, so it is always sent, false included.
    upsertByEmail: field(form, 'upsertByEmail').checked,
    title: textOrNull(field(form, 'title').value),
    lines: rows.map((row) => {
      const taxPercent = numberField(field(row, 'taxRate'));
      return {
        description: textOrNull(field(row, 'description').value),
        qty: numberField(field(row, 'qty')),
        unitPrice: numberField(field(row, 'unitPrice')),
        // People think in percent; quotes.create wants a fraction (0.15 for 15%).
        taxRate: taxPercent === null ? taxPercent : taxPercent / 100,
      };
    }),
  };
}

/**
 * A number field's value. An empty field reads as NaN, which the host could only call "got NaN";
 * sent as null it is "required", which is what the user needs to hear. The type says number
 * because the request's does: whether the form is complete is the host's to say, not this tool's.
 * @param {HTMLInputElement} input
 * @returns {number}
 */
function numberField(input) {
  return Number.isNaN(input.valueAsNumber) ? /** @type {number} */ (/** @type {unknown} */ (null)) : input.valueAsNumber;
}

/**
 * Shows why the host refused the quote, and marks the fields it names: `lines[1].qty` is the
 * quantity of the second line row, `customerEmail` the e-mail field.
 * @param {HTMLFormElement} form
 * @param {HTMLElement} box
 * @param {ReturnType<typeof readBridgeError>} error
 */
function showQuoteProblems(form, box, error) {
  const heading = document.createElement('p');
  const code = error.code ? ` (${error.code})` : '';
  const count = error.details.length;
  // With details, each problem is listed on its own; the message would repeat them.
  heading.textContent =
    count > 0
      ? `The quote was not created${code}: ${count === 1 ? 'one thing' : `${count} things`} to fix, marked in the form.`
      : `The quote was not created${code}: ${error.message}`;
  box.replaceChildren(heading);
  if (error.details.length > 0) {
    const list = document.createElement('ul');
    for (const problem of error.details) {
      const item = document.createElement('li');
      item.textContent = `${describePath(problem.path)}: ${problem.message}`;
      list.append(item);
      inputForProblem(form, problem)?.setAttribute('aria-invalid', 'true');
    }
    box.append(list);
  }
  show(box, true);
}

/**
 * @param {HTMLFormElement} form
 * @param {BridgeProblem} problem
 */
function inputForProblem(form, problem) {
  const line = /^lines\[(\d+)\]\.(\w+)$/.exec(problem.path);
  if (line) {
    const row = element('line-rows', HTMLTableSectionElement).rows[Number(line[1])];
    return row ? findField(row, line[2] ?? '') : null;
  }
  return findField(form, problem.path);
}

/**
 * `lines[1].qty` → "Line 2, qty"; any other path as the host wrote it.
 * @param {string} path
 */
function describePath(path) {
  const line = /^lines\[(\d+)\](?:\.(\w+))?$/.exec(path);
  return line ? `Line ${Number(line[1]) + 1}${line[2] ? `, ${line[2]}` : ''}` : path;
}

// ---------------------------------------------------------------------------------------------
// Preferences (settings.get and settings.set arrived in SDK 2.3.0)
// ---------------------------------------------------------------------------------------------

/**
 * The saved preferences, or the defaults when there are none or the host is older than SDK
 * 2.3.0. Preferences make the tool nicer; they must never stop it from starting.
 * @param {PipelineSdk} bridge
 * @returns {Promise<Preferences>}
 */
async function loadPreferences(bridge) {
  if (typeof bridge.settings?.get !== 'function') return { ...DEFAULT_PREFERENCES };
  try {
    return readPreferences(await bridge.settings.get(PREFERENCES_KEY));
  } catch {
    return { ...DEFAULT_PREFERENCES };
  }
}

/**
 * Whatever is stored may come from an older version of this tool, so each field is checked.
 * @param {unknown} stored
 * @returns {Preferences}
 */
function readPreferences(stored) {
  const value = typeof stored === 'object' && stored !== null ? /** @type {Record<string, unknown>} */ (stored) : {};
  const tab = TABS.find((name) => name === value['tab']) ?? DEFAULT_PREFERENCES.tab;
  const pageSize = PAGE_SIZES.find((size) => size === value['pageSize']) ?? DEFAULT_PREFERENCES.pageSize;
  return { tab, pageSize };
}

/**
 * @param {PipelineSdk} bridge
 * @param {Preferences} preferences
 */
function savePreferences(bridge, preferences) {
  if (typeof bridge.settings?.set !== 'function') return;
  bridge.settings.set(PREFERENCES_KEY, { ...preferences }).catch(() => {
    // Losing a preference is harmless; interrupting the user about it is not.
  });
}

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

/**
 * Reads a rejected bridge call. The platform documents no error shape; `pipeline-tool dev` adds
 * a `code` and, for bad arguments, `details` naming every problem. Show the message either way.
 * @param {unknown} error
 * @returns {{ message: string, code: string | null, details: BridgeProblem[] }}
 */
function readBridgeError(error) {
  const record = typeof error === 'object' && error !== null ? /** @type {Record<string, unknown>} */ (error) : {};
  const message = typeof record['message'] === 'string' && record['message'] !== '' ? record['message'] : String(error);
  const code = typeof record['code'] === 'string' ? record['code'] : null;
  const details = Array.isArray(record['details']) ? record['details'].filter(isBridgeProblem) : [];
  return { message, code, details };
}

/**
 * @param {unknown} value
 * @returns {value is BridgeProblem}
 */
function isBridgeProblem(value) {
  const record = /** @type {Record<string, unknown>} */ (value);
  return typeof value === 'object' && value !== null && typeof record['path'] === 'string' && typeof record['message'] === 'string';
}

/**
 * Number and date formats in the user's culture (`cultureCode`, such as en-NZ). The bridge does
 * not say which currency the tenant uses, so amounts are shown without a symbol.
 * @param {string} cultureCode
 */
function formattersFor(cultureCode) {
  let locale;
  try {
    locale = Intl.getCanonicalLocales(cultureCode)[0];
  } catch {
    locale = undefined;
  }
  const money = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  return {
    /** @param {number} amount */
    money: (amount) => money.format(amount),
    /** @param {string} iso */
    date: (iso) => {
      const parsed = new Date(iso);
      return Number.isNaN(parsed.getTime()) ? iso : date.format(parsed);
    },
  };
}

/**
 * An element of index.html by id, checked to be of the expected kind.
 * @template {HTMLElement} E
 * @param {string} id
 * @param {{ new (): E, prototype: E }} kind
 * @returns {E}
 */
function element(id, kind) {
  const found = document.getElementById(id);
  if (!(found instanceof kind)) throw new Error(`index.html has no element #${id} of the expected kind`);
  return found;
}

/**
 * An input of a form or a line row, by name.
 * @param {ParentNode} root
 * @param {string} name
 */
function field(root, name) {
  const input = findField(root, name);
  if (!input) throw new Error(`index.html has no input named ${name}`);
  return input;
}

/**
 * Compares names instead of building a selector, because `name` may come from the host.
 * @param {ParentNode} root
 * @param {string} name
 */
function findField(root, name) {
  return [...root.querySelectorAll('input')].find((input) => input.name === name) ?? null;
}

/** @param {string} text */
function textOrNull(text) {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * @param {string | null} name
 * @returns {TabName}
 */
function asTab(name) {
  return TABS.find((tab) => tab === name) ?? DEFAULT_PREFERENCES.tab;
}

/**
 * @param {HTMLElement | string} target
 * @param {boolean} visible
 */
function show(target, visible) {
  const node = typeof target === 'string' ? element(target, HTMLElement) : target;
  node.hidden = !visible;
}

/**
 * @param {HTMLElement} box
 * @param {string} text
 */
function showMessage(box, text) {
  box.textContent = text;
  box.hidden = false;
}
