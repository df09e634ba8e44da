import { describe, expect, it } from 'vitest';
import { checkHost, allowedHostNames, parseHostHeader } from '../../src/dev/host-check.js';
import { findInsertPoint, injectSdkScript } from '../../src/dev/inject-sdk.js';
import { decodeWireValue, encodeWireValue, UnsupportedValue, WIRE_TAG, WireError } from '../../src/dev/wire-values.js';

const TAG = '<script src="/sdk.js"></script>';
const inject = (html: string) => injectSdkScript(Buffer.from(html, 'latin1'), '/sdk.js').toString('latin1');

describe('injecting the SDK', () => {
  it.each([
    ['<!doctype html><html><head><title>x</title><script src="a.js"></script></head></html>', `<!doctype html><html><head>${TAG}<title>x</title>`],
    ['<html lang="en"><HEAD data-x="1"><script>1</script>', `<html lang="en"><HEAD data-x="1">${TAG}<script>1</script>`],
    ['<!-- <head> in a comment --><html><head></head>', `<!-- <head> in a comment --><html><head>${TAG}</head>`],
    ['<html><header>not a head</header><script></script>', `<html>${TAG}<header>`],
    ['<!DOCTYPE html>\n<script src="a.js"></script>', `<!DOCTYPE html>${TAG}\n<script`],
    ['<script src="a.js"></script>', `${TAG}<script src="a.js">`],
    ['', TAG],
  ])('puts the tag first in %j', (html, expected) => {
    expect(inject(html)).toContain(expected);
    expect(inject(html).length).toBe(html.length + TAG.length);
  });

  it.each([
    ['skips a <head> inside a script string', '<html><body><script>const tpl = "<head></head>";</script>', `<html>${TAG}<body>`],
    ['skips an <html> and a <head> inside script text, falling back to the start', '<body><script>const tpl = "<html><head>";</script>', `${TAG}<body><script>`],
    ['skips a <head> inside a style', '<style>/* <head> */</style><html><head>', `</style><html><head>${TAG}`],
    ['skips a <head> inside a textarea', '<textarea><head></textarea><p>x</p>', `${TAG}<textarea><head></textarea>`],
    ['skips a <head> inside a title', '<title><head></title>', `${TAG}<title><head></title>`],
    ['skips a <head> inside a template', '<template><div><head></div></template><html lang="en">', `<html lang="en">${TAG}`],
    ['skips a <head> inside nested templates', '<template><template></template><head></template><head>', `</template><head>${TAG}`],
    ['skips a <head> in a comment and in a script', '<!-- <head> --><script>"<head>"</script><head>', `</script><head>${TAG}`],
    ['skips a <head> in an attribute value, and a > in a quoted one', '<html data-x="<head>"><head id=\'a>b\'>', `<head id='a>b'>${TAG}`],
    ['ends a script at its end tag in any letter case', '<SCRIPT>"<head>"</ScRiPt ><head>', `</ScRiPt ><head>${TAG}`],
    ['treats a script that never ends as text to the end', '<!doctype html><script>"<head>"', `<!doctype html>${TAG}<script>`],
    ['ends a comment written <!-->', '<!--><head>', `<!--><head>${TAG}`],
    ['ends a comment at --!>', '<!-- x --!><head>', `--!><head>${TAG}`],
    ['does not take <scripts> for a script', '<scripts>x</scripts><head>', `<head>${TAG}`],
  ])('%s', (_case, html, expected) => {
    expect(inject(html)).toContain(expected);
    expect(inject(html).length).toBe(html.length + TAG.length);
  });

  it.each([
    ['after a doctype behind a byte order mark', '\u00ef\u00bb\u00bf<!-- c --><!doctype html><p>x</p>', `<!doctype html>${TAG}<p>x</p>`],
    ['at the start when the doctype comes after content', '<p>x</p><!doctype html>', `${TAG}<p>x</p>`],
  ])('puts the tag %s', (_case, html, expected) => {
    expect(inject(html)).toContain(expected);
    expect(inject(html).length).toBe(html.length + TAG.length);
  });

  it.each([
    ['comments', '<!---->'],
    ['unclosed less-than signs', '<'],
    ['end tags', '</a>'],
    ['start tags', '<p x=1>'],
  ])('takes linear time on a large page of %s', (_case, unit) => {
    // 3 MB of the worst input: a quadratic scan would take hours, so finishing at all is the
    // check (its speed is the benchmark's business, never an assertion here).
    const page = Buffer.from(unit.repeat(Math.ceil(3_000_000 / unit.length)), 'latin1');
    expect(injectSdkScript(page, '/sdk.js').length).toBeGreaterThan(page.length);
  });

  it('leaves script text intact, so the page still runs', () => {
    const html = '<html><body><script>const tpl = "<head></head>";</script></body></html>';
    const out = inject(html);
    expect(out).toContain('<script>const tpl = "<head></head>";</script>');
    expect(out.indexOf(TAG)).toBeLessThan(out.indexOf('<body>'));
  });

  it('keeps a byte order mark first and other bytes untouched', () => {
    const page = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>caf\xe9</p>', 'latin1')]);
    const out = injectSdkScript(page, '/sdk.js');
    expect([...out.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(out.subarray(out.length - 11).toString('latin1')).toBe('<p>caf\xe9</p>');
    expect(findInsertPoint('\u00ef\u00bb\u00bf<p>')).toBe(3);
  });
});

describe('wire values', () => {
  const roundTrip = (value: unknown) => decodeWireValue(JSON.parse(JSON.stringify(encodeWireValue(value))));

  it('carry what JSON cannot', () => {
    const decoded = roundTrip([{ qty: Number.NaN, unitPrice: Number.POSITIVE_INFINITY, taxRate: Number.NEGATIVE_INFINITY, note: undefined }, undefined]) as unknown[];
    const line = decoded[0] as Record<string, unknown>;
    expect(line['qty']).toBeNaN();
    expect(line['unitPrice']).toBe(Number.POSITIVE_INFINITY);
    expect(line['taxRate']).toBe(Number.NEGATIVE_INFINITY);
    expect('note' in line).toBe(true);
    expect(decoded).toHaveLength(2);
  });

  it('turn values that are not plain data into UnsupportedValue', () => {
    const decoded = roundTrip({ when: new Date(0), map: new Map(), big: 10n }) as Record<string, unknown>;
    expect(decoded['when']).toEqual(new UnsupportedValue('Date'));
    expect(decoded['map']).toEqual(new UnsupportedValue('Map'));
    expect(decoded['big']).toEqual(new UnsupportedValue('bigint'));
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect((roundTrip(cycle) as Record<string, unknown>)['self']).toEqual(new UnsupportedValue('circular reference'));
  });

  it('keep keys that look like the tag, and __proto__, as plain data', () => {
    const tricky = JSON.parse(`{"${'\\u0000wire'}": "undefined", "__proto__": {"polluted": true}}`) as object;
    const decoded = roundTrip(tricky) as Record<string, unknown>;
    expect(Object.keys(decoded)).toEqual([WIRE_TAG, '__proto__']);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('refuse tags the encoder never writes, and absurd depth', () => {
    expect(() => decodeWireValue({ [WIRE_TAG]: 'function', source: '() => 1' })).toThrow(WireError);
    expect(() => decodeWireValue({ [WIRE_TAG]: 'number', value: '42' })).toThrow(WireError);
    let deep: unknown = 1;
    for (let i = 0; i < 300; i++) deep = [deep];
    expect(() => decodeWireValue(deep)).toThrow(WireError);
  });

  it('has an encoder that runs on its own, as the host page embeds it', () => {
    // Built from source text, as the host page gets it: no closure over this module.
    const standalone = new Function(`return (${encodeWireValue.toString()})`)() as typeof encodeWireValue;
    expect(standalone({ a: Number.NaN })).toEqual({ a: { [WIRE_TAG]: 'number', value: 'NaN' } });
  });
});

describe('the Host check', () => {
  const loopback = allowedHostNames('127.0.0.1');

  it.each([
    ['127.0.0.1:4800', '127.0.0.1'],
    ['localhost:4800', 'localhost'],
    ['LOCALHOST:4800', 'localhost'],
    ['[::1]:4800', '::1'],
  ])('accepts %s', (header, name) => {
    expect(checkHost(header, loopback, 4800)).toBe(name);
  });

  it.each([undefined, '', 'evil.example:4800', '127.0.0.1:4801', '127.0.0.1', 'localhost:4800@evil', '127.0.0.1:4800 ', '[zz]:4800', '127.0.0.2:4800'])(
    'refuses %j',
    (header) => {
      expect(checkHost(header, loopback, 4800)).toBeUndefined();
    },
  );

  it('reads a Host without a port as port 80', () => {
    expect(parseHostHeader('localhost')).toEqual({ name: 'localhost', port: 80 });
  });
});
