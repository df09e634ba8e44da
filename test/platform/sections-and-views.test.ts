import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES, type Platform } from '../../src/platform/index.js';
import { ids, line, makePlatform, problemsOf, rejectionOf, warningCodes } from './helpers.js';

/** Each editor block as [section name or 'Ungrouped', summaryOnly, notes, line descriptions]. */
const sectionsOf = (platform: Platform) =>
  platform.editorView().blocks.map((b) => [b.section?.name ?? 'Ungrouped', b.section?.summaryOnly ?? null, b.section?.notes ?? null, b.lines.map((l) => l.description)]);

describe('section identity, trimming and truncation (Section rule 1, §2)', () => {
  it('same name with a different summaryOnly gives two sections', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([
      line({ description: 'a', section: 'Kitchen' }),
      line({ description: 'b', section: 'Kitchen', summaryOnly: true }),
      line({ description: 'c', section: '  Kitchen  ' }),
    ]);
    expect(sectionsOf(platform)).toEqual([
      ['Kitchen', false, null, ['a', 'c']],
      ['Kitchen', true, null, ['b']],
    ]);
  });

  it('null, empty and blank sections land under Ungrouped, which comes last', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ description: 'a' }), line({ description: 'b', section: '' }), line({ description: 'c', section: '   ' })]);
    await platform.sdk.quotes.addLines([line({ description: 'd', section: 'Later' }), line({ description: 'e', section: null })]);
    expect(sectionsOf(platform)).toEqual([
      ['Later', false, null, ['d']],
      ['Ungrouped', null, null, ['a', 'b', 'c', 'e']],
    ]);
  });

  it('cuts names to 100 characters, with a warning, and groups by the cut name', async () => {
    const { platform, warnings } = makePlatform();
    const long = 'S'.repeat(100);
    await platform.sdk.quotes.addLines([line({ description: 'a', section: `${long}-one` }), line({ description: 'b', section: `  ${long}-two` })]);
    expect(sectionsOf(platform)).toEqual([[long, false, null, ['a', 'b']]]);
    expect(warningCodes(warnings)).toEqual([
      ['lines[0].section', 'SECTION_NAME_TRUNCATED'],
      ['lines[1].section', 'SECTION_NAME_TRUNCATED'],
    ]);
  });

  it('never cuts a character in half', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ section: `${'a'.repeat(99)}😀 and more` })]);
    expect(platform.editorView().blocks[0]!.section!.name).toBe('a'.repeat(99));
  });

  it('summaryOnly that is not a boolean counts as false and never rejects', async () => {
    const { platform, warnings } = makePlatform();
    await platform.call('quotes.addLines', [[line({ section: 'A', summaryOnly: 'true' }), line({ section: 'A', summaryOnly: 1 })]]);
    expect(sectionsOf(platform)).toEqual([['A', false, null, ['', '']]]);
    expect(warningCodes(warnings)).toEqual([
      ['lines[0].summaryOnly', 'FIELD_IGNORED'],
      ['lines[1].summaryOnly', 'FIELD_IGNORED'],
    ]);
  });

  it('section fields on a line without a section have no effect', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addLines([line({ summaryOnly: true, sectionNotes: 'lost' })]);
    expect(sectionsOf(platform)).toEqual([['Ungrouped', null, null, ['']]]);
    expect(warningCodes(warnings)).toEqual([
      ['lines[0].summaryOnly', 'FIELD_IGNORED'],
      ['lines[0].sectionNotes', 'FIELD_IGNORED'],
    ]);
  });
});

describe('section notes (§2, Section rules 3 and 6)', () => {
  it('the first non-empty notes among a section’s lines win, line breaks kept, across calls too', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([
      line({ section: 'Benchtop', sectionNotes: '' }),
      line({ section: 'Benchtop', sectionNotes: 'Stone: 20 mm\r\nEdge: <b>arris</b>' }),
      line({ section: 'Benchtop', sectionNotes: 'Ignored' }),
    ]);
    await platform.sdk.quotes.addLines([line({ section: 'Benchtop', sectionNotes: 'Also ignored' })]);
    expect(platform.editorView().blocks[0]!.section!.notes).toBe('Stone: 20 mm\r\nEdge: <b>arris</b>');
  });

  it('notes of spaces only are a non-empty value: they win, print as blank, and are warned about', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addLines([
      line({ description: 'a', section: 'Benchtop', sectionNotes: '  \n ' }),
      line({ description: 'b', section: 'Benchtop', sectionNotes: 'Stone: 20 mm' }),
    ]);
    await platform.sdk.quotes.addSections([{ name: 'Terms', notes: '   ' }, { name: 'Empty', notes: '' }]);
    expect(sectionsOf(platform)).toEqual([
      ['Benchtop', false, '  \n ', ['a', 'b']],
      ['Terms', false, '   ', []],
      ['Empty', false, null, []],
    ]);
    // A declared section with notes prints (Section rule 5), even when they print as blank.
    expect(platform.customerPreview().blocks.map((b) => [b.kind, b.name, 'notes' in b ? b.notes : undefined])).toEqual([
      ['section', 'Benchtop', '  \n '],
      ['notes', 'Terms', '   '],
    ]);
    expect(warningCodes(warnings)).toEqual([
      ['lines[0].sectionNotes', 'SECTION_NOTES_BLANK'],
      ['sections[0].notes', 'SECTION_NOTES_BLANK'],
    ]);
  });

  it('cuts notes to 2000 characters with a warning', async () => {
    const { platform, warnings } = makePlatform();
    await platform.sdk.quotes.addSections([{ name: 'Terms', notes: 'n'.repeat(2500) }]);
    expect(platform.editorView().blocks[0]!.section!.notes).toHaveLength(2000);
    expect(warningCodes(warnings)).toEqual([['sections[0].notes', 'SECTION_NOTES_TRUNCATED']]);
  });
});

describe('declared sections (§2 Section declaration, Section rule 6)', () => {
  it('are applied after the lines of the same call, so they sort after sections the lines create', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ description: 'x', section: 'Zebra' })], { sections: [{ name: 'Alpha', notes: 'First' }] });
    expect(sectionsOf(platform)).toEqual([
      ['Zebra', false, null, ['x']],
      ['Alpha', false, 'First', []],
    ]);
  });

  it('are not duplicated, and fill notes only where a section has none', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ description: 'a', section: 'Plain' }), line({ description: 'b', section: 'Noted', sectionNotes: 'Original' })], {
      sections: [
        { name: 'Plain', notes: 'Filled' },
        { name: 'Noted', notes: 'Replacement?' },
        { name: 'Noted', summaryOnly: true, notes: 'Collapsed twin' },
        { name: ' Plain ', notes: 'Too late' },
      ],
    });
    expect(sectionsOf(platform)).toEqual([
      ['Plain', false, 'Filled', ['a']],
      ['Noted', false, 'Original', ['b']],
      ['Noted', true, 'Collapsed twin', []],
    ]);
  });

  it('keeps its place when later lines land in it', async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addSections([{ name: 'Appliances' }, { name: 'Extras' }]);
    await platform.sdk.quotes.addLines([line({ description: 'hood', section: 'Extras' }), line({ description: 'oven', section: 'Ovens' })]);
    expect(sectionsOf(platform)).toEqual([
      ['Appliances', false, null, []],
      ['Extras', false, null, ['hood']],
      ['Ovens', false, null, ['oven']],
    ]);
  });

  it('a blank declared name rejects the whole batch, lines included', async () => {
    const { platform } = makePlatform();
    const error = await rejectionOf(
      platform.call('quotes.addLines', [[line({ section: 'A' })], { sections: [{ name: 'Fine' }, { name: '  ' }, { notes: 'no name' }, { name: 7 }, 'x'] }]),
      'BATCH_REJECTED',
    );
    expect(problemsOf(error)).toEqual([
      ['sections[1].name', 'BLANK_SECTION_NAME'],
      ['sections[2].name', 'BLANK_SECTION_NAME'],
      ['sections[3].name', 'INVALID_TYPE'],
      ['sections[4]', 'INVALID_TYPE'],
    ]);
    expect(platform.editorView().blocks).toEqual([]);
  });

  it('quotes.addSections is addLines with sections and no lines', async () => {
    const one = makePlatform().platform;
    const two = makePlatform().platform;
    const sections = [{ name: 'Scope', notes: 'Supply and install' }, { name: 'Scope', summaryOnly: true }];
    await one.sdk.quotes.addSections(sections);
    await two.sdk.quotes.addLines([], { sections });
    expect(one.editorView()).toEqual(two.editorView());
    expect(problemsOf(await rejectionOf(one.sdk.quotes.addSections([{ name: '' }]), 'BATCH_REJECTED'))).toEqual([['sections[0].name', 'BLANK_SECTION_NAME']]);
    expect(problemsOf(await rejectionOf(one.call('quotes.addSections', [{ name: 'A' }]), 'BATCH_REJECTED'))).toEqual([['sections', 'INVALID_TYPE']]);
  });
});

describe('views (Section rules 2–5)', () => {
  const hiddenTemplate = { ...DEFAULT_FIXTURES, quoteTemplate: { showSubtotals: false, showUnitPrices: false } };

  async function buildQuote(platform: Platform) {
    await platform.sdk.quotes.addLines([
      line({ description: 'Loose item', unitPrice: 10 }),
      line({ description: 'Carcass', section: 'Cabinets', unitPrice: 200, qty: 2, sectionNotes: 'Melteca, white' }),
      line({ description: 'Hinges', section: 'Cabinets', unitPrice: 12.5, qty: 4 }),
      line({ description: 'Demolition', section: 'Preparation', summaryOnly: true, unitPrice: 300, sectionNotes: 'Includes <skip> bin' }),
      line({ description: 'Protection', section: 'Preparation', summaryOnly: true, unitPrice: 45.5, discountPercent: 10 }),
    ], { sections: [{ name: 'Exclusions', notes: 'Electrical work\nPlumbing' }, { name: 'Nothing here' }] });
  }

  it('the editor shows every line by section, Ungrouped last, with totals', async () => {
    const { platform } = makePlatform();
    await buildQuote(platform);
    const view = platform.editorView();
    expect(view.blocks.map((b) => [b.section?.name ?? null, b.lines.length, b.totals.nett])).toEqual([
      ['Cabinets', 2, 450],
      ['Preparation', 2, 340.95],
      ['Exclusions', 0, 0],
      ['Nothing here', 0, 0],
      [null, 1, 10],
    ]);
    // 450 + 340.95 + 10 = 800.95 nett; tax 67.50 + 51.14 (45 + 6.1425→6.14) + 1.50 = 120.14
    expect(view.totals).toEqual({ nett: 800.95, tax: 120.14, total: 921.09 });
  });

  it('the customer preview collapses summaryOnly sections, prints notes, and skips empty declared sections', async () => {
    const { platform } = makePlatform();
    await buildQuote(platform);
    const preview = platform.customerPreview();
    expect(preview.blocks).toEqual([
      {
        kind: 'section',
        name: 'Cabinets',
        notes: 'Melteca, white',
        lines: [
          { description: 'Carcass', qty: 2, unit: 'T_ITEM', unitPrice: 200, discountPercent: 0, nett: 400 },
          { description: 'Hinges', qty: 4, unit: 'T_ITEM', unitPrice: 12.5, discountPercent: 0, nett: 50 },
        ],
        subtotal: 450,
      },
      { kind: 'summary', name: 'Preparation', notes: 'Includes <skip> bin', total: 340.95 },
      { kind: 'notes', name: 'Exclusions', notes: 'Electrical work\nPlumbing' },
      {
        kind: 'ungrouped',
        name: 'Ungrouped',
        lines: [{ description: 'Loose item', qty: 1, unit: 'T_ITEM', unitPrice: 10, discountPercent: 0, nett: 10 }],
        subtotal: 10,
      },
    ]);
    expect(preview.totals).toEqual(platform.editorView().totals);
  });

  it('a collapsed section prints its total even when the template hides subtotals and unit prices', async () => {
    const { platform } = makePlatform({ fixtures: hiddenTemplate });
    await buildQuote(platform);
    const preview = platform.customerPreview();
    expect(preview.template).toEqual({ showSubtotals: false, showUnitPrices: false });
    expect(preview.blocks.map((b) => [b.kind, 'subtotal' in b ? b.subtotal : 'total' in b ? b.total : undefined])).toEqual([
      ['section', null],
      ['summary', 340.95],
      ['notes', undefined],
      ['ungrouped', null],
    ]);
    const cabinets = preview.blocks[0]!;
    expect(cabinets.kind === 'section' && cabinets.lines.map((l) => l.unitPrice)).toEqual([null, null]);
  });

  it('summaryOnly never changes the grand total', async () => {
    const collapsed = makePlatform().platform;
    const expanded = makePlatform().platform;
    const lines = [line({ section: 'S', unitPrice: 33.33, qty: 3, taxRate: 15 }), line({ unitPrice: 0.05 })];
    await collapsed.sdk.quotes.addLines(lines.map((l) => ({ ...l, summaryOnly: true })));
    await expanded.sdk.quotes.addLines(lines);
    expect(collapsed.customerPreview().totals).toEqual(expanded.customerPreview().totals);
    expect(collapsed.editorView().totals).toEqual({ nett: 100.04, tax: 15.01, total: 115.05 });
  });

  it('views are plain JSON data', async () => {
    const { platform } = makePlatform();
    await buildQuote(platform);
    await platform.sdk.quotes.addLines([line({ linkedItemId: ids.product('CAB-BASE-600'), section: 'Cabinets' })]);
    for (const view of [platform.editorView(), platform.customerPreview()]) {
      expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    }
  });

  it('resetOpenQuote empties the quote', async () => {
    const { platform } = makePlatform();
    await buildQuote(platform);
    platform.resetOpenQuote();
    expect(platform.editorView()).toEqual({
      quote: { id: '90000000-0000-4000-8000-000000000001', ref: 'Q-1042', customerName: 'Aroha Tane', title: 'Kitchen renovation' },
      blocks: [],
      totals: { nett: 0, tax: 0, total: 0 },
    });
  });
});

describe('views: totals and the quote they show', () => {
  it("each editor line's total is its nett plus its tax", async () => {
    const { platform } = makePlatform();
    await platform.sdk.quotes.addLines([line({ unitPrice: 19.99, qty: 3 })]);
    // 59.97 nett; 8.9955 → 9.00 tax
    expect(platform.editorView().blocks[0]!.lines.map((l) => [l.nett, l.tax, l.total])).toEqual([[59.97, 9, 68.97]]);
  });

  it('both views name the open quote', async () => {
    const { platform } = makePlatform();
    const header = { id: DEFAULT_FIXTURES.openQuote.id, ref: 'Q-1042', customerName: 'Aroha Tane', title: 'Kitchen renovation' };
    expect(platform.editorView().quote).toEqual(header);
    expect(platform.customerPreview().quote).toEqual(header);
  });

  it('the tax counts towards the limit on a quote total, not only the nett', async () => {
    const { platform } = makePlatform();
    // Each line fits (44 trillion cents nett plus 15% tax); their netts together fit too, but not with their tax.
    const big = line({ unitPrice: 0.01, qty: 4.4e15, taxRate: 0.15 });
    const error = await rejectionOf(platform.sdk.quotes.addLines([big, big]), 'BATCH_REJECTED');
    expect(error.details.map((p) => `${p.path}: ${p.message}`)).toEqual(['lines: the quote total would be too large to be represented exactly']);
    await platform.sdk.quotes.addLines([big]);
    await rejectionOf(platform.sdk.quotes.addLines([big]), 'BATCH_REJECTED');
    expect(platform.editorView().blocks.flatMap((b) => b.lines)).toHaveLength(1);
  });
});
