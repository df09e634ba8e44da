// Turning results into text. Pure functions: they take the report object and return a string.

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const formatInt = (n) => n.toLocaleString('en-US');
const formatMs = (ms) => (ms === null || ms === undefined ? '-' : ms.toFixed(1));

function formatGoal(row) {
  if (row.kind === 'memory') return `<= ${row.goal.max} MiB`;
  if (row.kind === 'load') return `<= ${formatInt(row.goal.maxMs)} ms, per row <= ${row.goal.maxPerRowRatio.toFixed(2)}x`;
  return `<= ${row.goal.max.toFixed(2)}x`;
}

function formatInputs(inputs) {
  const zip = (bytes) => (bytes === null ? 'no zip' : `zip ${formatInt(bytes)} B`);
  return [
    `typical: ${inputs.typical.files} files, ${formatInt(inputs.typical.rawBytes)} B, ${zip(inputs.typical.zipBytes)}`,
    `max: ${inputs.max.files} files, ${formatInt(inputs.max.rawBytes)} B, ${zip(inputs.max.zipBytes)}`,
    `maxjs: ${inputs.maxjs.files} files, ${formatInt(inputs.maxjs.rawBytes)} B, ${zip(inputs.maxjs.zipBytes)}`,
    `maxmin: ${inputs.maxmin.files} files, ${formatInt(inputs.maxmin.rawBytes)} B, ${zip(inputs.maxmin.zipBytes)}`,
    `bomb: 1 entry inflating to ${formatInt(inputs.bomb.rawBytes)} B, ${zip(inputs.bomb.zipBytes)}`,
    `fixtures: ${formatInt(inputs.fixtures.small.rows)} rows, ${formatInt(inputs.fixtures.small.bytes)} B; ${formatInt(inputs.fixtures.large.rows)} rows, ${formatInt(inputs.fixtures.large.bytes)} B`,
  ];
}

function formatHeader(report) {
  const { machine, tools, cli, settings } = report;
  const toolText = [
    tools.zip.available ? `zip ${tools.zip.version}` : 'zip MISSING',
    tools.unzip.available ? `unzip ${tools.unzip.version}` : 'unzip MISSING',
    tools.time.available ? 'GNU time' : '/usr/bin/time MISSING',
    cli.version.available ? `pipeline-tool ${cli.version.value}` : 'pipeline-tool not available',
  ].join(', ');
  return [
    'pipeline-tool benchmark',
    `machine  node ${machine.node}, ${machine.platform}, ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB RAM, load ${machine.loadAverage.join(' ')}`,
    ...formatPageFaultCost(machine),
    `tools    ${toolText}`,
    ...formatInputs(report.inputs).map((line, i) => `${i === 0 ? 'inputs  ' : '        '} ${line}`),
    `method   median of ${plural(settings.runs, 'run')} (${settings.startupBoundRuns} for typical.zip and --version) after ${plural(settings.warmup, 'warm-up')},`,
    '         the two commands of a pair alternating; ratio = ours / reference;',
    '         spread = median absolute deviation of the ratios of each round (of the peaks, for memory);',
    '         SPREAD = goal missed by no more than the spread: reported, not counted as a miss;',
    '         maxjs.zip: reference = unzip -t + V8\'s parse of the same scripts (CPU, bench/v8-parse.mjs), each round;',
    `         peak memory: median of ${plural(settings.memoryRuns, 'run')} under GNU time (max RSS);`,
    '         fixture load: time inside the process, schema compiled first; ratio = time per row at 100,000 rows / at 10,000',
    `env      ${settings.removedVariables.length > 0 ? `removed for both sides: ${settings.removedVariables.join(', ')} (they change Node's own start-up)` : 'nothing removed: no variable that changes Node\'s start-up was set'}`,
  ];
}

/** The machine's price of a page of fresh memory (pageFaultCost in measure.mjs), when it was measured. */
function formatPageFaultCost(machine) {
  if (machine.pageFaultUs === undefined) return [];
  if (machine.pageFaultUs === null) return ['memory   the price of a page fault could not be measured on this system'];
  return [`memory   ${machine.pageFaultUs.toFixed(1)} µs per page touched for the first time (a minor page fault: ${PRICE_PROBE})`];
}

const PRICE_PROBE = 'a child filling 64 new 1 MiB buffers, against one buffer 64 times';

/**
 * For each timed pair whose runs' page faults were counted: how many pages each side touched for
 * the first time, and what the difference costs at the machine's price, since `unzip` and `zip`
 * touch few and a figure against them carries that price.
 */
function formatPageFaults(report) {
  const price = report.machine.pageFaultUs;
  return report.results
    .filter((row) => row.faults)
    .map((row) => {
      const partLabel = row.ref?.parts ? ` (${Object.keys(row.ref.parts)[0]} alone)` : '';
      const extra = row.faults.ours - row.faults.reference;
      const cost = typeof price === 'number' && extra > 0 ? `; the difference at ${price.toFixed(1)} µs each: about ${formatInt(Math.round((extra * price) / 1000))} ms` : '';
      return `  ${row.measure}: ours ${formatInt(row.faults.ours)}, reference ${formatInt(row.faults.reference)}${partLabel}${cost}`;
    });
}

const PAGE_FAULTS_TITLE = 'pages touched for the first time (minor page faults, median per run)';

/** The run-to-run spread (see spreadOf in measure.mjs), in the figure's unit. */
function formatSpread(row) {
  if (row.spread === null || row.spread === undefined) return '';
  return row.kind === 'memory' ? `±${row.spread.toFixed(1)} MiB` : `±${row.spread.toFixed(2)}x`;
}

const HEADER = ['measure', 'ours (ms)', 'reference', 'ref (ms)', 'ratio', 'spread', 'goal', 'result'];
const NUMERIC = new Set([1, 3, 4, 5]);

function tableCells(row) {
  if (row.kind === 'memory') {
    return [row.measure, row.peakMiB === null ? '-' : `${row.peakMiB.toFixed(1)} MiB`, '', '', '', formatSpread(row), formatGoal(row), row.status];
  }
  return [
    row.measure,
    formatMs(row.ours?.medianMs),
    row.reference,
    formatMs(row.ref?.medianMs),
    row.ratio === null ? '-' : `${row.ratio.toFixed(2)}x`,
    formatSpread(row),
    formatGoal(row),
    row.status,
  ];
}

/** Left-aligns text columns and right-aligns numeric ones. */
function alignTable(header, rows, rightAligned) {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((cells) => cells[c].length)));
  return all.map((cells) =>
    cells.map((cell, c) => (rightAligned.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd(),
  );
}

function formatSummary(results) {
  const count = (status) => results.filter((row) => row.status === status).length;
  const unchecked = count('SKIP') + count('N/A');
  if (count('PASS') === results.length) return `all ${results.length} goals met`;
  const parts = [`${count('PASS')} of ${results.length} goals met`];
  const near = results.filter((row) => row.status === 'SPREAD').map((row) => row.id);
  if (near.length > 0) parts.push(`missed by less than the run-to-run spread: ${near.join(', ')}`);
  const missed = results.filter((row) => row.status === 'FAIL').map((row) => row.id);
  if (missed.length > 0) parts.push(`missed: ${missed.join(', ')}`);
  const blocked = results.filter((row) => row.status === 'SKIP' || row.status === 'N/A').map((row) => row.id);
  if (unchecked > 0) parts.push(`not checked: ${blocked.join(', ')}`);
  return parts.join('; ');
}

/** One line for stderr naming the goals that were missed or could not be checked, or null. */
export function formatMissed(results) {
  return results.every((row) => row.status === 'PASS') ? null : `bench: ${formatSummary(results)}`;
}

/** For a yardstick of two parts, what each part took (medians), so the sum can be read. */
function formatParts(results) {
  return results
    .filter((row) => row.ref?.parts)
    .map((row) => `  ${row.measure}: reference ${formatMs(row.ref.medianMs)} ms = median of the sums of ${Object.entries(row.ref.parts).map(([label, part]) => `${label} (median ${formatMs(part.medianMs)} ms)`).join(' and ')}`);
}

export function formatText(report) {
  const table = alignTable(HEADER, report.results.map(tableCells), NUMERIC);
  // Rows that share a cause (say, no dist/ yet) share one note.
  const groups = new Map();
  for (const row of report.results.filter((r) => r.note)) {
    const key = `${row.status}\u0000${row.note}`;
    if (!groups.has(key)) groups.set(key, { status: row.status, note: row.note, measures: [] });
    groups.get(key).measures.push(row.measure);
  }
  const notes = [...groups.values()].map(
    (group) => `  ${group.measures.join('; ')} [${group.status}]: ${group.note.replace(/\n/g, '\n      ')}`,
  );
  const parts = formatParts(report.results);
  const faults = formatPageFaults(report);
  return [
    ...formatHeader(report),
    '',
    ...table,
    '',
    ...(parts.length > 0 ? ['yardsticks of two parts', ...parts, ''] : []),
    ...(faults.length > 0 ? [PAGE_FAULTS_TITLE, ...faults, ''] : []),
    ...(notes.length > 0 ? ['notes', ...notes, ''] : []),
    formatSummary(report.results),
    '',
  ].join('\n');
}

export function formatJson(report) {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** The table alone as Markdown, for docs/performance.md. */
export function formatMarkdown(report) {
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map((_, c) => (NUMERIC.has(c) ? '---:' : '---')).join('|')}|`];
  for (const row of report.results) lines.push(`| ${tableCells(row).map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`);
  const parts = formatParts(report.results).map((line) => line.trim());
  const faults = formatPageFaults(report);
  const price = report.machine.pageFaultUs;
  const priced = typeof price === 'number' ? `; one costs ${price.toFixed(1)} µs on this machine (${PRICE_PROBE})` : '';
  return [
    lines.join('\n'),
    ...(parts.length > 0 ? [parts.join('\n')] : []),
    ...(faults.length > 0 ? [[`${PAGE_FAULTS_TITLE[0].toUpperCase()}${PAGE_FAULTS_TITLE.slice(1)}${priced}:`, '', ...faults.map((line) => `- ${line.trim()}`)].join('\n')] : []),
  ].join('\n\n') + '\n';
}
