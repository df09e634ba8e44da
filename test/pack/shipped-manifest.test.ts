import { describe, expect, it } from 'vitest';
import { shippedManifest } from '../../src/core/manifest/shipped-manifest.js';

const ship = (text: string) => shippedManifest(Buffer.from(text, 'utf8')).toString('utf8');

describe('shippedManifest: $schema stays home', () => {
  it('removes the member and keeps every later line where it was', () => {
    const folder = '{\n  "$schema": "../node_modules/pipeline-tool/schemas/manifest.schema.json",\n  "name": "a"\n}\n';
    const shipped = ship(folder);
    expect(shipped).toBe('{\n\n  "name": "a"\n}\n');
    expect(JSON.parse(shipped)).toEqual({ name: 'a' });
    expect(shipped.split('\n').indexOf('  "name": "a"')).toBe(folder.split('\n').indexOf('  "name": "a"'));
  });

  it('compact text, a last member, the only member, a repeated or escaped key', () => {
    expect(ship('{"$schema":"x","name":"a"}')).toBe('{"name":"a"}');
    expect(ship('{\n  "name": "a",\n  "$schema": "x"\n}')).toBe('{\n  "name": "a"\n\n}');
    expect(ship('{ "$schema": "x" }')).toBe('{ }');
    expect(JSON.parse(ship('{"$schema":"x","$sch\\u0065ma":"y","n":{"$schema":1}}'))).toEqual({ n: { $schema: 1 } });
  });

  it('keeps a byte order mark and nested values that hold braces in strings', () => {
    const shipped = shippedManifest(Buffer.from('\uFEFF{"a":1,"$schema":"x","b":[1,{"c":"}"}]}', 'utf8'));
    expect(shipped.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(JSON.parse(shipped.subarray(3).toString('utf8'))).toEqual({ a: 1, b: [1, { c: '}' }] });
  });

  it('leaves everything else byte for byte: no $schema, not an object, not JSON, not UTF-8', () => {
    for (const text of ['{"name":"$schema"}', '[{"$schema":1}]', '{"$schema": bad', '"$schema"']) {
      const bytes = Buffer.from(text, 'utf8');
      expect(shippedManifest(bytes)).toBe(bytes);
    }
    const latin1 = Buffer.from([0x7b, 0x22, 0x24, 0x73, 0x63, 0x68, 0x65, 0x6d, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]);
    expect(shippedManifest(latin1)).toBe(latin1);
  });
});
