import { afterAll, describe, expect, it } from 'vitest';
import { pieces, refuse, splits, tempStore, write } from './harness.js';

// Expected documents and error texts: Meilisearch's tests/documents/add_documents.rs snapshots,
// the `csv` crate's error formats and Rust's number/boolean parse errors.
const store = tempStore();
afterAll(() => store.remove());

const malformed = (detail: string) => ({ code: 'malformed_payload', message: `The \`csv\` payload provided is malformed: \`${detail}\`.` });

describe('CSV payloads', () => {
  it('turns each record into an object keyed by the header, values as strings', async () => {
    const out = await write(store, 'csv', '#id,name,race\n0,jean,bernese mountain\n1,jorts,orange cat');
    expect(out.documentsCount).toBe(2);
    expect(out.lines).toEqual(['{"#id":"0","name":"jean","race":"bernese mountain"}', '{"#id":"1","name":"jorts","race":"orange cat"}']);
  });

  it('converts typed columns, with null for empty cells', async () => {
    const body = '#id:number,name:string,race:string,age:number,cute:boolean\n0,jean,bernese mountain,2.5,true\n1,,,,\n2,lilou,pug,-2,false';
    const out = await write(store, 'csv', body);
    expect(out.lines).toEqual([
      '{"#id":0,"name":"jean","race":"bernese mountain","age":2.5,"cute":true}',
      '{"#id":1,"name":null,"race":null,"age":null,"cute":null}',
      '{"#id":2,"name":"lilou","race":"pug","age":-2,"cute":false}',
    ]);
  });

  it('trims typed cells at their ends only, in one walk past long inner runs of spaces', async () => {
    const spaces = ' '.repeat(100_000);
    const wide = '\u3000'.repeat(100_000);
    const out = await write(store, 'csv', `n:number,b:boolean\n \u3000 7 \u0085, true \n`);
    expect(out.lines).toEqual(['{"n":7,"b":true}']);
    // Rust's trim pattern retried each inner space to the end: minutes for these cells
    expect((await refuse(store, 'csv', `n:number\n a${spaces}a `)).message).toContain('`Error parsing number');
    expect((await refuse(store, 'csv', `b:boolean\n\u3000a${wide}a\u3000`)).message).toContain('`Error parsing boolean');
  });

  it('uses a custom delimiter', async () => {
    const out = await write(store, 'csv', '#id|name|race\n0|jean|bernese mountain\n1|jorts|orange cat', { delimiter: '|' });
    expect(out.lines).toEqual(['{"#id":"0","name":"jean","race":"bernese mountain"}', '{"#id":"1","name":"jorts","race":"orange cat"}']);
    const tabs = await write(store, 'csv', 'a\tb\n1,2\t3', { delimiter: '\t' });
    expect(tabs.lines).toEqual(['{"a":"1,2","b":"3"}']);
  });

  it('reads quoted fields: delimiters, doubled quotes, line breaks', async () => {
    const out = await write(store, 'csv', 'id,text\n1,"a,b"\n2,"he said ""hi"""\n3,"two\r\nlines"\n4,""\n');
    expect(out.lines).toEqual([
      '{"id":"1","text":"a,b"}',
      '{"id":"2","text":"he said \\"hi\\""}',
      '{"id":"3","text":"two\\r\\nlines"}',
      '{"id":"4","text":null}',
    ]);
  });

  it('keeps quotes that do not open a field, and text after a closing quote', async () => {
    const out = await write(store, 'csv', 'a,b\nx"y,"p"q\n');
    expect(out.lines).toEqual(['{"a":"x\\"y","b":"pq"}']);
  });

  it('accepts CR, LF and CRLF record ends, skips empty lines and drops a leading BOM', async () => {
    const out = await write(store, 'csv', '\ufeff\r\nid,v\r\n\r\n1,a\r2,b\n\n3,c\r\n');
    expect(out.lines).toEqual(['{"id":"1","v":"a"}', '{"id":"2","v":"b"}', '{"id":"3","v":"c"}']);
  });

  it('ends the last record with the input, including an empty last field', async () => {
    const out = await write(store, 'csv', 'a,b\n1,');
    expect(out.lines).toEqual(['{"a":"1","b":null}']);
  });

  it('runs an unterminated quote to the end of the input', async () => {
    const out = await write(store, 'csv', 'a,b\n1,"x\ny');
    expect(out.lines).toEqual(['{"a":"1","b":"x\\ny"}']);
  });

  it('keeps dotted headers as flat keys', async () => {
    const out = await write(store, 'csv', 'id,product.name\n1,shoe');
    expect(out.lines).toEqual(['{"id":"1","product.name":"shoe"}']);
  });

  it('types a header on its last colon and keeps unknown suffixes in the name', async () => {
    const out = await write(store, 'csv', 'a:b:number,price:int,x:,:boolean\n1,2,3,true');
    expect(out.lines).toEqual(['{"a:b":1,"price:int":"2","x:":"3","":true}']);
  });

  it('gives a repeated field its first place and its last value', async () => {
    const out = await write(store, 'csv', 'a,b,a:number\nx,y,3');
    expect(out.lines).toEqual(['{"a":3,"b":"y"}']);
  });

  it('parses numbers like Rust: trimmed, i64 when possible, else f64 printed as serde_json does', async () => {
    const cells = [' 12 ', '+5', '007', '-0', '-9223372036854775808', '9223372036854775808', '2.5', '1e3', '1.', '.5', '-0.0', '1.5e-7', '1e16', '123456789012345678', 'inf', '-Infinity', 'NaN', '1e400', '\u00a012\u3000', '0.00001', '0.0000099', '9999999999999998.0', '1e21', '-2.5e-300'];
    const out = await write(store, 'csv', `n:number\n${cells.map((c) => `"${c}"`).join('\n')}`);
    expect(out.lines.map((l) => l.slice('{"n":'.length, -1))).toEqual([
      '12', '5', '7', '0', '-9223372036854775808', '9.223372036854776e18', '2.5', '1000.0', '1.0', '0.5', '-0.0', '1.5e-7', '1e16', '123456789012345678', 'null', 'null', 'null', 'null', '12', '0.00001', '9.9e-6', '9999999999999998.0', '1e21', '-2.5e-300',
    ]);
  });

  it('parses booleans exactly, trimmed, and keeps string cells untrimmed', async () => {
    const out = await write(store, 'csv', 'b:boolean,s\n true , \n,x');
    expect(out.lines).toEqual(['{"b":true,"s":" "}', '{"b":null,"s":"x"}']);
  });

  it('writes a header-only payload as zero documents', async () => {
    expect(await write(store, 'csv', 'id,name\n')).toMatchObject({ documentsCount: 0, size: 0 });
    expect(await write(store, 'csv', '\n\n')).toMatchObject({ documentsCount: 0, size: 0 });
  });

  it('gives the same file whatever the chunk boundaries (quotes, UTF-8, CRLF, BOM)', async () => {
    const body = Buffer.from('\ufeffid:number,text\r\n1,"é ""🐶"", x"\r\n2,plain\r\n\r\n3,"a\r\nb"');
    const expected = await write(store, 'csv', body);
    expect(expected.lines).toEqual(['{"id":1,"text":"é \\"🐶\\", x"}', '{"id":2,"text":"plain"}', '{"id":3,"text":"a\\r\\nb"}']);
    for (const parts of splits(body)) {
      const out = await write(store, 'csv', pieces(parts));
      expect(out.content.equals(expected.content)).toBe(true);
    }
  });

  it('refuses an empty body as a missing payload', async () => {
    expect(await refuse(store, 'csv', '')).toEqual({ code: 'missing_payload', message: 'A csv payload is missing.' });
  });

  it('refuses a record whose field count differs from the header', async () => {
    expect(await refuse(store, 'csv', 'id, content\n1234, hello, world\n12, hello world')).toEqual(
      malformed('CSV error: record 1 (line: 2, byte: 12): found record with 3 fields, but the previous record has 2 fields'),
    );
    expect(await refuse(store, 'csv', 'a,b,c\n1,2,3\n\n4,5\n')).toEqual(
      malformed('CSV error: record 2 (line: 3, byte: 12): found record with 2 fields, but the previous record has 3 fields'),
    );
  });

  it('places a record after CRLF where the csv crate does: past the CR only', async () => {
    expect(await refuse(store, 'csv', 'a,b\r\n1,2,3\r\n')).toEqual(
      malformed('CSV error: record 1 (line: 1, byte: 4): found record with 3 fields, but the previous record has 2 fields'),
    );
  });

  it('refuses invalid booleans and numbers with Rust messages and the data line', async () => {
    expect(await refuse(store, 'csv', '#id:number,a:boolean,b:number\n0,doggo,1')).toEqual(
      malformed('Error parsing boolean "doggo" at line 1: provided string was not `true` or `false`'),
    );
    expect(await refuse(store, 'csv', '#id:number,a:boolean,b:number\n0,true,doggo')).toEqual(
      malformed('Error parsing number "doggo" at line 1: invalid float literal'),
    );
    expect(await refuse(store, 'csv', 'b:boolean\ntrue\n\nTrue')).toEqual(
      malformed('Error parsing boolean "True" at line 2: provided string was not `true` or `false`'),
    );
  });

  it('quotes the untrimmed cell as Rust debug-prints it', async () => {
    expect(await refuse(store, 'csv', 'n:number\n" 1\t""2\\\n"')).toEqual(
      malformed('Error parsing number " 1\\t\\"2\\\\\\n" at line 1: invalid float literal'),
    );
    expect(await refuse(store, 'csv', 'n:number\n"x\u00a0\u0301é"')).toEqual(
      malformed('Error parsing number "x\\u{a0}\\u{301}é" at line 1: invalid float literal'),
    );
  });

  it('refuses invalid UTF-8 with the record position, field and offset in the field', async () => {
    const bad = Buffer.concat([Buffer.from('a,b\n1,é'), Buffer.from([0xff]), Buffer.from('\n')]);
    expect(await refuse(store, 'csv', bad)).toEqual(
      malformed('CSV parse error: record 1 (line 2, field: 1, byte: 4): invalid utf-8: invalid UTF-8 in field 1 near byte index 2'),
    );
    const header = Buffer.concat([Buffer.from('a,'), Buffer.from([0xe9]), Buffer.from('\n1,2\n')]);
    expect(await refuse(store, 'csv', header)).toEqual(
      malformed('CSV parse error: record 0 (line 1, field: 1, byte: 0): invalid utf-8: invalid UTF-8 in field 1 near byte index 0'),
    );
  });

  it('reports the first error in record order', async () => {
    const body = Buffer.concat([Buffer.from('a:number,b\nx,ok\n1,'), Buffer.from([0xff]), Buffer.from('\n1,2,3\n')]);
    expect(await refuse(store, 'csv', body)).toEqual(malformed('Error parsing number "x" at line 1: invalid float literal'));
  });

  it('checks the field count before UTF-8', async () => {
    const bad = Buffer.concat([Buffer.from('a,b\n'), Buffer.from([0xff])]);
    expect(await refuse(store, 'csv', bad)).toEqual(
      malformed('CSV error: record 1 (line: 2, byte: 4): found record with 1 fields, but the previous record has 2 fields'),
    );
  });
});
