/*
 * The host page's panels: the open quote (editor and customer preview), the quotes made with
 * quotes.create, the validation findings and the stored settings. Runs in the browser, embedded
 * in the host script through Function.prototype.toString, so it is one self-contained function.
 * Everything it shows is untrusted text and goes into the page as textContent only.
 */

/** Redraws every panel from the server's state. */
export function drawPanels(current: unknown, show: (value: unknown) => string): void {
  type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- shapes come from the server's DevState
  const state = current as Json;
  const byId = (id: string) => document.getElementById(id) as HTMLElement;
  const make = (tag: string, text?: string | null, className?: string): HTMLElement => {
    const element = document.createElement(tag);
    if (text !== undefined && text !== null) element.textContent = text;
    if (className) element.className = className;
    return element;
  };
  const money = (value: number | null | undefined): string => {
    if (typeof value !== 'number') return '';
    try {
      return new Intl.NumberFormat(state.context?.cultureCode || undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
    } catch {
      return value.toFixed(2);
    }
  };

  const table = (headings: string[], rows: (string | number | null)[][]): HTMLElement => {
    const element = make('table');
    const head = make('tr');
    for (const heading of headings) head.append(make('th', heading));
    element.append(head);
    for (const row of rows) {
      const tr = make('tr');
      for (const cell of row) tr.append(make('td', cell === null ? '' : String(cell)));
      element.append(tr);
    }
    return element;
  };

  const totalsLine = (totals: Json, label: string) =>
    make('p', `${label}: nett ${money(totals.nett)} · tax ${money(totals.tax)} · total ${money(totals.total)}`, 'totals');

  const renderEditor = () => {
    const view = state.editor;
    const holder = byId('quote-editor');
    holder.replaceChildren();
    holder.append(make('p', `${view.quote.ref} · ${view.quote.customerName || 'no customer'}${view.quote.title ? ` · ${view.quote.title}` : ''}`, 'quote-header'));
    if (view.blocks.length === 0) holder.append(make('p', 'No lines yet.', 'empty'));
    for (const block of view.blocks) {
      const section = make('section', null, 'quote-block');
      section.dataset['section'] = block.section === null ? '' : block.section.name;
      section.dataset['summaryOnly'] = String(block.section?.summaryOnly ?? false);
      const title = make('h4', block.section === null ? 'Ungrouped' : block.section.name);
      if (block.section?.summaryOnly) title.append(make('span', 'summary only', 'badge'));
      section.append(title);
      if (block.section?.notes) section.append(make('p', block.section.notes, 'notes'));
      if (block.lines.length > 0) {
        section.append(
          table(
            ['#', 'Type', 'Description', 'Code', 'Qty', 'Unit', 'Sell', 'Buy', 'Disc %', 'Tax', 'Nett', 'Total', 'Group'],
            block.lines.map((line: Json) => [
              line.injectedFromLine === null ? line.lineNumber : `${line.lineNumber} ↳${line.injectedFromLine}`,
              line.lineType,
              line.description,
              line.workObjectCode,
              line.qty,
              line.unit,
              money(line.unitPrice),
              money(line.costPrice),
              line.discountPercent,
              `${Math.round(line.taxRate * 10000) / 100}%`,
              money(line.nett),
              money(line.total),
              line.groupId || '',
            ]),
          ),
          totalsLine(block.totals, 'Section'),
        );
      }
      holder.append(section);
    }
    holder.append(totalsLine(view.totals, 'Quote'));
  };

  const renderPreview = () => {
    const preview = state.preview;
    const holder = byId('quote-preview');
    holder.replaceChildren();
    if (preview.blocks.length === 0) holder.append(make('p', 'Nothing to print yet.', 'empty'));
    for (const block of preview.blocks) {
      const section = make('section', null, `preview-block preview-${block.kind}`);
      section.dataset['kind'] = block.kind;
      section.dataset['section'] = block.name;
      if (block.kind === 'summary') {
        const row = make('div', null, 'summary-row');
        row.append(make('span', block.name, 'summary-name'), make('span', money(block.total), 'summary-total'));
        section.append(row);
        if (block.notes) section.append(make('p', block.notes, 'notes'));
      } else {
        section.append(make('h4', block.name));
        if (block.notes) section.append(make('p', block.notes, 'notes'));
        if (block.kind !== 'notes') {
          section.append(
            table(
              preview.template.showUnitPrices ? ['Description', 'Qty', 'Unit', 'Unit price', 'Disc %', 'Amount'] : ['Description', 'Qty', 'Unit', 'Disc %', 'Amount'],
              block.lines.map((line: Json) =>
                preview.template.showUnitPrices
                  ? [line.description, line.qty, line.unit, money(line.unitPrice), line.discountPercent || '', money(line.nett)]
                  : [line.description, line.qty, line.unit, line.discountPercent || '', money(line.nett)],
              ),
            ),
          );
          if (block.subtotal !== null) section.append(make('p', `Subtotal ${money(block.subtotal)}`, 'totals'));
        }
      }
      holder.append(section);
    }
    holder.append(totalsLine(preview.totals, 'Quote'));
  };

  const renderCreated = () => {
    const holder = byId('created-quotes');
    holder.replaceChildren();
    const created = state.createdQuotes as Json[];
    if (created.length === 0) {
      holder.append(make('p', 'None yet: quotes.create adds them here.', 'empty'));
      return;
    }
    holder.append(table(['Ref', 'Customer', 'Lines', 'Total'], created.map((quote) => [quote.ref, quote.customerName, quote.lines?.length ?? '', money(quote.totals?.total)])));
  };

  /**
   * One finding: severity, rule, place and message; when a source map placed it at the author's
   * source, also where it sits in the code (`key` says which: the bundle's `built`, or `served`).
   */
  const findingItem = (problem: Json, key: 'built' | 'served'): HTMLElement => {
    const item = make('li', null, problem.severity);
    item.dataset['rule'] = problem.ruleId;
    const where = problem.file ? `${problem.file}${problem.line ? `:${problem.line}` : ''} ` : '';
    item.append(make('strong', `${problem.severity} `), make('code', problem.ruleId), make('span', ` ${where}${problem.message}`));
    const placed = problem[key];
    if (placed) {
      item.dataset[key] = `${placed.file}:${placed.line}:${placed.column}`;
      item.append(make('span', ` (${key}: ${item.dataset[key]})`, 'built'));
    }
    return item;
  };

  /** A warning in library code, which a line per package sums up (as isSummed in core/library-summary.ts says). */
  const summedUp = (problem: Json) => problem.library === true && problem.severity === 'warning';

  /**
   * The library lines (one per package, or vendored file, as validate prints them), each opening
   * to list the warnings it sums up.
   */
  const libraryItems = (lines: Json[] | undefined, key: 'built' | 'served'): HTMLElement[] =>
    (lines ?? []).map((line) => {
      const item = make('li', null, 'warning library-summary');
      item.dataset['library'] = line.name;
      const details = make('details');
      const summary = make('summary');
      summary.append(make('strong', 'warning '), make('code', line.name), make('span', ` ${line.summary}`));
      const list = make('ul');
      for (const problem of line.warnings as Json[]) list.append(findingItem(problem, key));
      details.append(summary, list);
      item.append(details);
      return item;
    });

  /** What the code rules found in the modules the other dev server serves: the code running now. */
  const renderServed = (holder: HTMLElement, served: Json) => {
    const problems = served.problems as Json[];
    holder.append(make('h4', `Checked as served (${served.modules} ${served.modules === 1 ? 'module' : 'modules'})`, 'findings-source'));
    if (problems.length === 0) holder.append(make('p', 'No problems in the code served.', 'ok'));
    const list = make('ul', null, 'served-findings');
    for (const problem of problems) {
      if (summedUp(problem)) continue;
      const item = findingItem(problem, 'served');
      item.dataset['place'] = `${problem.file ?? ''}${problem.line ? `:${problem.line}:${problem.column}` : ''}`;
      list.append(item);
    }
    list.append(...libraryItems(served.library, 'served'));
    if (problems.length > 0) holder.append(list);
    holder.append(make('h4', 'From the last build (sizes, file types, references, syntax)', 'findings-source'));
  };

  const renderFindings = () => {
    const holder = byId('findings');
    holder.replaceChildren();
    const findings = state.findings;
    if (findings === null) {
      holder.append(make('p', 'Checking…', 'empty'));
      return;
    }
    const served = findings.served;
    if (served) renderServed(holder, served);
    const servedCount = served ? (served.problems as Json[]).length : 0;
    if (!findings.ok) {
      byId('finding-count').textContent = String(servedCount);
      holder.append(make('p', `Could not validate: ${findings.message}`, 'error'));
      return;
    }
    const report = findings.report;
    byId('finding-count').textContent = String(report.problems.length + servedCount);
    // The bundle against the marketplace limits, as builds print it, and the page of where its bytes come from.
    const sizes = make('p', null, 'size-line');
    sizes.id = 'size-line';
    const link = make('a', 'Bundle report') as HTMLAnchorElement;
    link.href = '/__pipeline/bundle-report';
    link.target = '_blank';
    link.rel = 'noopener';
    link.id = 'bundle-report-link';
    sizes.append(make('span', String(findings.sizeLine)), ' · ', link);
    holder.append(sizes);
    if (report.problems.length === 0) {
      holder.append(make('p', served ? 'No problems in the last build.' : 'No problems: this folder passes pipeline-tool validate.', 'ok'));
    } else {
      const list = make('ul');
      for (const problem of report.problems) if (!summedUp(problem)) list.append(findingItem(problem, 'built'));
      list.append(...libraryItems(findings.library, 'built'));
      holder.append(list);
    }
    // What pack leaves out: listed as validate lists it, so nothing is dropped unseen.
    const excluded = (report.excluded ?? []) as Json[];
    if (excluded.length > 0) {
      const details = make('details', null, 'left-out');
      details.append(make('summary', `Left out of the bundle, as pack leaves them out (${excluded.length})`));
      const list = make('ul');
      for (const entry of excluded) {
        const item = make('li');
        item.dataset['reason'] = entry.reason;
        item.append(make('code', entry.path), make('span', ` ${entry.reason}${entry.detail === undefined ? '' : ` (${entry.detail})`}`));
        list.append(item);
      }
      details.append(list);
      holder.append(details);
    }
  };

  const renderSettings = () => {
    const holder = byId('settings-list');
    holder.replaceChildren();
    const entries = state.settings.entries as Json[];
    byId('settings-file').textContent = state.settings.file;
    if (entries.length === 0) holder.append(make('p', 'No settings stored for this tool.', 'empty'));
    else holder.append(table(['Key', 'Value'], entries.map((entry) => [entry.key, show(entry.value)])));
  };

  renderEditor();
  renderPreview();
  renderCreated();
  renderFindings();
  renderSettings();
}
