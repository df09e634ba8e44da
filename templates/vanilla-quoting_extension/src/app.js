// @ts-check

/*
 * A quoting extension for Pipeline: opened from inside a quote, it prices a kitchen from a few
 * answers and adds the lines to that quote with quotes.addLines.
 *
 * It follows the platform's recommended pattern:
 * 1. At start, fetch the product catalogue in one large page and map each uppercased SKU to
 *    its product, because SKUs are the same in every environment and GUIDs are not.
 * 2. Resolve task templates and job cost templates by their codes, for the same reason.
 * 3. Send every line with its productCode and the id found for it. A SKU the tenant lacks is
 *    sent without an id: it lands as free text, with no error.
 * 4. Group lines into sections, and show a rejected batch next to the lines it names.
 *
 * The host runs the tool in a sandboxed iframe: alert(), confirm() and prompt() do nothing
 * there, browser storage is not dependable, and everything shown comes from textContent, never
 * from HTML strings.
 */

/**
 * @typedef {import('../pipeline').PipelineSdk} PipelineSdk
 * @typedef {import('../pipeline').BridgeProductDto} BridgeProductDto
 * @typedef {import('../pipeline').BridgeAddLineDto} BridgeAddLineDto
 * @typedef {import('../pipeline').BridgeSectionDto} BridgeSectionDto
 * @typedef {import('../pipeline').BridgeCodeListOptions} BridgeCodeListOptions
 * @typedef {import('../pipeline').BridgeProblem} BridgeProblem
 * @typedef {import('../pipeline').BridgeUnit} BridgeUnit
 */

// ---------------------------------------------------------------------------------------------
// What this estimator sells. Adapt these to your catalogue.
// ---------------------------------------------------------------------------------------------

/** Tax as a fraction. quotes.addLines would also read 15 as 15%, but a fraction is unambiguous. */
const TAX_RATE = 0.15;
/** One page this size is expected to hold the whole catalogue; more pages are read if not. */
const PRODUCT_PAGE_SIZE = 1000;
/** Benchtops are priced per square metre from their length and this depth. */
const BENCHTOP_DEPTH_METRES = 0.65;
/** Laminate benchtops come in 3 m lengths. */
const LAMINATE_LENGTH_METRES = 3;
/** Zone label stored on every line (its second free-text field). */
const LOCATION = 'Kitchen';

const SKU = {
  baseCabinet: 'CAB-BASE-600',
  wallCabinet: 'CAB-WALL-600',
  handle: 'HANDLE-BAR-160',
  stoneBenchtop: 'BENCH-STONE-20',
  laminateBenchtop: 'BENCH-LAM-3000',
};
const TASK_CODE = { stripOut: 'T_DEMOLITION' };
const JOB_COST_CODE = { disposal: 'DISPOSAL', checkMeasure: 'CHECK-MEASURE' };

/** The tool's own prices for work and costs; products take their price from the catalogue. */
const RATES = {
  stripOutPerCabinet: 38,
  disposal: { cost: 180, sell: 235 },
  checkMeasure: { cost: 90, sell: 150 },
};

/**
 * Sections the lines are grouped in. Site work is summaryOnly: the customer sees one row with
 * its total, while the editor and job costing still see every line.
 * @type {Record<'cabinetry' | 'benchtop' | 'siteWork', { name: string, summaryOnly: boolean, notes: string }>}
 */
const SECTIONS = {
  cabinetry: { name: 'Cabinetry', summaryOnly: false, notes: 'Soft-close hinges and drawer runners throughout.' },
  benchtop: { name: 'Benchtop', summaryOnly: false, notes: 'Priced from the length given; the check measure confirms it.' },
  siteWork: { name: 'Site work', summaryOnly: true, notes: 'Removal and disposal of the old kitchen, and a check measure visit.' },
};

/**
 * A section with notes and no lines, declared through the `sections` option (SDK 2.5.0 and
 * later): the quote prints its name and notes, with no total.
 * @type {BridgeSectionDto}
 */
const TERMS_SECTION = {
  name: 'Terms',
  notes: 'A 40% deposit confirms the order; the balance is due on installation.\nThis estimate is valid for 30 days.',
};

// ---------------------------------------------------------------------------------------------
// Start
// ---------------------------------------------------------------------------------------------

/**
 * @typedef {object} Catalogue
 * @property {Map<string, BridgeProductDto>} products  by uppercased SKU
 * @property {Map<string, string>} tasks  task template id by uppercased code
 * @property {Map<string, string>} jobCosts  job cost template id by uppercased code
 * @property {string[]} notices  what could not be resolved, for the user
 */

/**
 * @typedef {object} Host
 * @property {boolean} declaresSections  the `sections` option of addLines exists (SDK 2.5.0)
 */

/**
 * @typedef {object} Estimate
 * @property {BridgeAddLineDto[]} lines
 * @property {BridgeSectionDto[]} sections  declared sections without lines
 * @property {string[]} notices
 */

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
  const [context, catalogue] = await Promise.all([bridge.context.get(), loadCatalogue(bridge)]);
  element('who', HTMLElement).textContent = `${context.userName} · ${context.tenantName}`;
  const money = moneyFormat(context.cultureCode);
  /** @type {Host} */
  const host = {
    declaresSections: sdkAtLeast(bridge.version, '2.5.0') && typeof bridge.quotes.addSections === 'function',
  };
  const form = element('kitchen', HTMLFormElement);
  const send = element('send', HTMLButtonElement);

  let estimate = buildEstimate(readKitchen(form), catalogue, host);
  const refresh = () => {
    estimate = buildEstimate(readKitchen(form), catalogue, host);
    renderEstimate(estimate, money);
    show('send-problems', false);
    show('sent', false);
    send.disabled = estimate.lines.length === 0;
  };
  form.addEventListener('input', refresh);
  send.addEventListener('click', () => void addToQuote(bridge, estimate, send));

  show('starting', false);
  show('app', true);
  refresh();
}

// ---------------------------------------------------------------------------------------------
// Catalogue: SKUs and template codes resolved to ids
// ---------------------------------------------------------------------------------------------

/**
 * @param {PipelineSdk} bridge
 * @returns {Promise<Catalogue>}
 */
async function loadCatalogue(bridge) {
  /** @type {string[]} */
  const notices = [];
  const jobCostsAvailable = typeof bridge.jobCostTemplates?.list === 'function';
  if (!jobCostsAvailable) {
    notices.push(`This host runs SDK ${bridge.version}, which has no job cost templates (2.2.0 and later), so job costs are sent ad hoc.`);
  }
  const [products, tasks, jobCosts] = await Promise.all([
    loadProducts(bridge),
    idsByCode((options) => bridge.taskTemplates.list(options), Object.values(TASK_CODE)),
    jobCostsAvailable ? idsByCode((options) => bridge.jobCostTemplates.list(options), Object.values(JOB_COST_CODE)) : new Map(),
  ]);
  for (const sku of Object.values(SKU)) {
    if (!products.has(sku)) notices.push(`SKU ${sku} is not in this catalogue: it is sent as free text at price 0; price it in the quote.`);
  }
  for (const code of Object.values(TASK_CODE)) {
    if (!tasks.has(code)) notices.push(`Task template ${code} was not found, so that work is sent as a plain line.`);
  }
  if (jobCostsAvailable) {
    for (const code of Object.values(JOB_COST_CODE)) {
      if (!jobCosts.has(code)) notices.push(`Job cost template ${code} was not found, so that cost is sent ad hoc.`);
    }
  }
  return { products, tasks, jobCosts, notices };
}

/**
 * Every product, by uppercased SKU. One large page normally holds them all; if the host pages
 * anyway, the remaining pages are read too.
 * @param {PipelineSdk} bridge
 */
async function loadProducts(bridge) {
  /** @type {Map<string, BridgeProductDto>} */
  const bySku = new Map();
  for (let page = 1; page <= 100; page++) {
    const result = await bridge.products.list({ page, pageSize: PRODUCT_PAGE_SIZE });
    for (const product of result.items) {
      const sku = product.sku.trim().toUpperCase();
      if (!bySku.has(sku)) bySku.set(sku, product);
    }
    if (result.items.length === 0 || page * result.pageSize >= result.totalCount) break;
  }
  return bySku;
}

/**
 * Looks template codes up in one call: with `codes`, the host ignores paging and returns every
 * active match.
 * @param {(options: BridgeCodeListOptions) => Promise<{ items: Array<{ id: string, code: string }> }>} list
 * @param {string[]} codes
 */
async function idsByCode(list, codes) {
  const result = await list({ codes });
  return new Map(result.items.map((row) => [row.code.toUpperCase(), row.id]));
}

// ---------------------------------------------------------------------------------------------
// Estimate: the kitchen as lines and sections
// ---------------------------------------------------------------------------------------------

/**
 * @typedef {object} Kitchen
 * @property {number} baseCabinets
 * @property {number} wallCabinets
 * @property {boolean} handles
 * @property {'stone' | 'laminate' | 'none'} benchtop
 * @property {number} benchtopMetres
 * @property {boolean} stripOut
 * @property {boolean} checkMeasure
 */

/**
 * @param {HTMLFormElement} form
 * @returns {Kitchen}
 */
function readKitchen(form) {
  const benchtop = control(form, 'benchtop', HTMLSelectElement).value;
  return {
    baseCabinets: wholeNumber(control(form, 'baseCabinets', HTMLInputElement).valueAsNumber, 40),
    wallCabinets: wholeNumber(control(form, 'wallCabinets', HTMLInputElement).valueAsNumber, 40),
    handles: control(form, 'handles', HTMLInputElement).checked,
    benchtop: benchtop === 'stone' || benchtop === 'laminate' ? benchtop : 'none',
    benchtopMetres: Math.min(30, Math.max(0, control(form, 'benchtopMetres', HTMLInputElement).valueAsNumber || 0)),
    stripOut: control(form, 'stripOut', HTMLInputElement).checked,
    checkMeasure: control(form, 'checkMeasure', HTMLInputElement).checked,
  };
}

/**
 * Turns the answers into quote lines. Pure: the same kitchen and catalogue always give the same
 * lines, which makes it the part worth unit testing.
 *
 * Products that have a task sequence in Pipeline (installation, for cabinets) bring their task
 * lines with them when sent with their id, so the estimate adds no installation lines itself.
 * @param {Kitchen} kitchen
 * @param {Catalogue} catalogue
 * @param {Host} host
 * @returns {Estimate}
 */
function buildEstimate(kitchen, catalogue, host) {
  const notices = [...catalogue.notices];
  const cabinets = kitchen.baseCabinets + kitchen.wallCabinets;

  const cabinetry = inSection(SECTIONS.cabinetry, [
    productLine(catalogue, SKU.baseCabinet, kitchen.baseCabinets),
    productLine(catalogue, SKU.wallCabinet, kitchen.wallCabinets),
    kitchen.handles ? productLine(catalogue, SKU.handle, cabinets) : null,
  ]);

  const metres = round2(kitchen.benchtopMetres);
  const benchtop = inSection(SECTIONS.benchtop, [
    kitchen.benchtop === 'stone'
      ? productLine(catalogue, SKU.stoneBenchtop, round2(metres * BENCHTOP_DEPTH_METRES), {
          specification: `${metres} m long, ${BENCHTOP_DEPTH_METRES} m deep`,
        })
      : null,
    kitchen.benchtop === 'laminate'
      ? productLine(catalogue, SKU.laminateBenchtop, Math.ceil(metres / LAMINATE_LENGTH_METRES), {
          specification: `${metres} m in ${LAMINATE_LENGTH_METRES} m lengths`,
        })
      : null,
  ]);

  const siteWork = inSection(SECTIONS.siteWork, [
    kitchen.stripOut && cabinets > 0 ? taskLine(catalogue, TASK_CODE.stripOut, 'Strip out the old kitchen', cabinets, RATES.stripOutPerCabinet) : null,
    kitchen.stripOut ? jobCostLine(catalogue, JOB_COST_CODE.disposal, 'Waste disposal', RATES.disposal) : null,
    kitchen.checkMeasure ? jobCostLine(catalogue, JOB_COST_CODE.checkMeasure, 'Check measure visit', RATES.checkMeasure) : null,
  ]);

  /** @type {BridgeSectionDto[]} */
  const sections = [];
  if (host.declaresSections) sections.push(TERMS_SECTION);
  else notices.push(`This host's SDK is older than 2.5.0, so the "${TERMS_SECTION.name}" section (notes without lines) is left out.`);

  return { lines: [...cabinetry, ...benchtop, ...siteWork], sections, notices };
}

/**
 * A product line, linked to the catalogue's product when its SKU is known. Quantities of 0 give
 * no line, because the host requires qty above 0.
 * @param {Catalogue} catalogue
 * @param {string} sku
 * @param {number} qty
 * @param {Partial<BridgeAddLineDto>} [extra]
 * @returns {BridgeAddLineDto | null}
 */
function productLine(catalogue, sku, qty, extra = {}) {
  if (!(qty > 0)) return null;
  const product = catalogue.products.get(sku.toUpperCase());
  return {
    lineType: 'product',
    productCode: sku,
    linkedItemId: product ? product.id : null,
    description: product ? product.name : sku,
    qty,
    unitPrice: product ? product.price : 0,
    taxRate: TAX_RATE,
    unit: unitOf(product),
    location: LOCATION,
    ...extra,
  };
}

/**
 * A priced task line linked to its template; without the template it becomes a plain line.
 * @param {Catalogue} catalogue
 * @param {string} code
 * @param {string} description
 * @param {number} qty
 * @param {number} unitPrice
 * @returns {BridgeAddLineDto}
 */
function taskLine(catalogue, code, description, qty, unitPrice) {
  const id = catalogue.tasks.get(code.toUpperCase());
  return {
    ...(id ? { lineType: 'task', linkedItemId: id } : {}),
    productCode: code,
    description,
    qty,
    unitPrice,
    taxRate: TAX_RATE,
    location: LOCATION,
  };
}

/**
 * A job cost line. Linked to its template, the template decides the cost code and ledger
 * routing while our prices still apply; without one it is an ad-hoc cost, which is also valid.
 * @param {Catalogue} catalogue
 * @param {string} code
 * @param {string} description
 * @param {{ cost: number, sell: number }} price
 * @returns {BridgeAddLineDto}
 */
function jobCostLine(catalogue, code, description, price) {
  return {
    lineType: 'jobcost',
    linkedItemId: catalogue.jobCosts.get(code.toUpperCase()) ?? null,
    productCode: code,
    description,
    qty: 1,
    costPrice: price.cost,
    unitPrice: price.sell,
    taxRate: TAX_RATE,
    location: LOCATION,
  };
}

/**
 * Puts lines in a section. The notes ride on the first line: the host keeps the first notes it
 * sees for a section, and this works on hosts without the `sections` option too.
 * @param {{ name: string, summaryOnly: boolean, notes: string }} section
 * @param {Array<BridgeAddLineDto | null>} lines
 * @returns {BridgeAddLineDto[]}
 */
function inSection(section, lines) {
  return lines
    .filter((line) => line !== null)
    .map((line, index) => ({
      ...line,
      section: section.name,
      summaryOnly: section.summaryOnly,
      ...(index === 0 ? { sectionNotes: section.notes } : {}),
    }));
}

// ---------------------------------------------------------------------------------------------
// Sending, and showing a rejected batch next to its lines
// ---------------------------------------------------------------------------------------------

/**
 * quotes.addLines merges the lines into the open quote without saving it; the user saves as
 * usual. The batch is all or nothing: on a rejection nothing was added, so the user can fix
 * the cause and send again.
 * @param {PipelineSdk} bridge
 * @param {Estimate} estimate
 * @param {HTMLButtonElement} button
 */
async function addToQuote(bridge, estimate, button) {
  show('send-problems', false);
  show('sent', false);
  clearLineProblems();
  button.disabled = true;
  try {
    if (estimate.sections.length > 0) await bridge.quotes.addLines(estimate.lines, { sections: estimate.sections });
    else await bridge.quotes.addLines(estimate.lines);
    const count = estimate.lines.length;
    showMessage(element('sent', HTMLElement), `Added ${count} ${count === 1 ? 'line' : 'lines'} to the quote. Save the quote to keep them.`);
    // Sending the same kitchen twice would double it; a change to the form enables the button again.
  } catch (error) {
    showBatchProblems(readBridgeError(error));
    button.disabled = false;
  }
}

/**
 * Problems that name a line (`lines[2].qty`) are shown under that line; the rest, such as a
 * declared section's (`sections[0].name`), above the button.
 * @param {ReturnType<typeof readBridgeError>} error
 */
function showBatchProblems(error) {
  const box = element('send-problems', HTMLElement);
  const heading = document.createElement('p');
  // With details, each problem is shown on its own; the message would repeat them.
  const summary = error.details.length > 0 ? 'Nothing was added; the lines marked below need changes.' : `Nothing was added. ${error.message}`;
  heading.textContent = error.code ? `${summary} (${error.code})` : summary;
  box.replaceChildren(heading);
  const elsewhere = document.createElement('ul');
  for (const problem of error.details) {
    const index = lineIndexOf(problem);
    const row = index === null ? null : document.querySelector(`tr[data-line="${index}"]`);
    if (row) markLine(row, problem.field ? `${problem.field}: ${problem.message}` : problem.message);
    else elsewhere.append(listItem(`${problem.path}: ${problem.message}`));
  }
  if (elsewhere.childElementCount > 0) box.append(elsewhere);
  show(box, true);
}

/**
 * The line a problem is about. Sections are reported as `sections[i]`; anything else with an
 * index counts as a line.
 * @param {BridgeProblem} problem
 */
function lineIndexOf(problem) {
  if (problem.path.startsWith('sections')) return null;
  const match = /^(?:lines)?\[(\d+)\]/.exec(problem.path);
  if (match) return Number(match[1]);
  return Number.isInteger(problem.index) ? problem.index : null;
}

/**
 * @param {Element} row
 * @param {string} message
 */
function markLine(row, message) {
  row.classList.add('rejected');
  const note = document.createElement('tr');
  note.className = 'line-problem';
  const cell = document.createElement('td');
  cell.colSpan = 4;
  cell.textContent = message;
  note.append(cell);
  row.after(note);
}

function clearLineProblems() {
  for (const note of document.querySelectorAll('tr.line-problem')) note.remove();
  for (const row of document.querySelectorAll('tr.rejected')) row.classList.remove('rejected');
}

// ---------------------------------------------------------------------------------------------
// Showing the estimate
// ---------------------------------------------------------------------------------------------

/**
 * @param {Estimate} estimate
 * @param {(amount: number) => string} money
 */
function renderEstimate(estimate, money) {
  element('notices', HTMLElement).replaceChildren(...estimate.notices.map(listItem));
  const body = element('lines', HTMLTableSectionElement);
  body.replaceChildren();
  let section = '';
  let total = 0;
  estimate.lines.forEach((line, index) => {
    if ((line.section ?? '') !== section) {
      section = line.section ?? '';
      body.append(sectionRow(section, Boolean(line.summaryOnly)));
    }
    const amount = round2(line.qty * line.unitPrice);
    total += amount;
    const row = document.createElement('tr');
    row.dataset['line'] = String(index);
    row.append(textCell(line.description ?? ''), textCell(String(line.qty), true), textCell(money(line.unitPrice), true), textCell(money(amount), true));
    body.append(row);
  });
  if (estimate.lines.length === 0) body.append(sectionRow('Nothing to add yet: choose some cabinets or a benchtop.', false));
  element('lines-total', HTMLElement).textContent = money(round2(total));
}

/**
 * @param {string} name
 * @param {boolean} summaryOnly
 */
function sectionRow(name, summaryOnly) {
  const row = document.createElement('tr');
  row.className = 'section';
  const cell = textCell(summaryOnly ? `${name} (the customer sees one total)` : name);
  cell.colSpan = 4;
  row.append(cell);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

/**
 * Reads a rejected bridge call. The platform documents no error shape; `pipeline-tool dev` adds
 * a `code` and, for a rejected batch, `details` with each problem's line. Show the message either way.
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
 * True when the host's SDK version (`window.pipeline.version`) is at least `wanted`.
 * @param {string} version
 * @param {string} wanted
 */
function sdkAtLeast(version, wanted) {
  const have = String(version).split('.').map(Number);
  const want = wanted.split('.').map(Number);
  for (let i = 0; i < want.length; i++) {
    const a = have[i] ?? 0;
    const b = want[i] ?? 0;
    if (Number.isNaN(a)) return false;
    if (a !== b) return a > b;
  }
  return true;
}

/**
 * The catalogue's unit when the bridge accepts it on a line; otherwise the host's default.
 * @param {BridgeProductDto | undefined} product
 * @returns {BridgeUnit | null}
 */
function unitOf(product) {
  /** @type {BridgeUnit[]} */
  const units = ['T_ITEM', 'T_SQUARE_METRE', 'T_LINEAR_METRE'];
  return units.find((unit) => unit === product?.unit) ?? null;
}

/**
 * Amounts in the user's culture. The bridge does not say which currency the tenant uses, so
 * they are shown without a symbol.
 * @param {string} cultureCode
 * @returns {(amount: number) => string}
 */
function moneyFormat(cultureCode) {
  let locale;
  try {
    locale = Intl.getCanonicalLocales(cultureCode)[0];
  } catch {
    locale = undefined;
  }
  const format = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return (amount) => format.format(amount);
}

/** @param {number} value */
function round2(value) {
  return Math.round(value * 100) / 100;
}

/**
 * @param {number} value
 * @param {number} max
 */
function wholeNumber(value, max) {
  return Number.isFinite(value) ? Math.min(max, Math.max(0, Math.floor(value))) : 0;
}

/**
 * A form control by name, checked to be of the expected kind.
 * @template {Element} E
 * @param {HTMLFormElement} form
 * @param {string} name
 * @param {{ new (): E, prototype: E }} kind
 * @returns {E}
 */
function control(form, name, kind) {
  const found = form.elements.namedItem(name);
  if (!(found instanceof kind)) throw new Error(`index.html has no form control ${name} of the expected kind`);
  return found;
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
 * @param {string} text
 * @param {boolean} [number]
 */
function textCell(text, number = false) {
  const cell = document.createElement('td');
  cell.textContent = text;
  if (number) cell.className = 'number';
  return cell;
}

/** @param {string} text */
function listItem(text) {
  const item = document.createElement('li');
  item.textContent = text;
  return item;
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
