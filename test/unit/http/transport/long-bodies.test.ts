// A long string body is handed on as a stream of UTF-8 pieces whose bytes are the string's, never
// cutting a surrogate pair; a shorter body, or one that is no string, is handed on as it is.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sendLongInPieces } from '../../../../src/http/transport/long-bodies.js';

function handedOn(payload: unknown): unknown {
  let out: unknown;
  sendLongInPieces({} as FastifyRequest, {} as FastifyReply, payload, (_err, next) => (out = next));
  return out;
}

async function pieces(stream: Readable): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const piece of stream) out.push(piece as Buffer);
  return out;
}

describe('sendLongInPieces', () => {
  it('hands on a string under a mebi-unit, a buffer and a stream as they are', () => {
    const short = 'x'.repeat(1024 * 1024 - 1);
    expect(handedOn(short)).toBe(short);
    const bytes = Buffer.alloc(2 * 1024 * 1024);
    expect(handedOn(bytes)).toBe(bytes);
    const stream = Readable.from(['a']);
    expect(handedOn(stream)).toBe(stream);
  });

  it("streams a long string in pieces whose bytes are the string's UTF-8, a surrogate pair never cut", async () => {
    // pairs at every offset around the 64 Ki-unit piece bounds, and a lone surrogate
    for (const [filler, at] of [['😀', 0], ['😀', 1], ['é"\\', 2], ['a\uD800b', 3]] as const) {
      const text = 'x'.repeat(at) + filler.repeat(Math.ceil((1024 * 1024) / filler.length) + 7);
      const stream = handedOn(text);
      expect(stream).toBeInstanceOf(Readable);
      const got = await pieces(stream as Readable);
      expect(got.length).toBeGreaterThan(16);
      expect(Buffer.concat(got).equals(Buffer.from(text))).toBe(true);
      // each piece decodes alone: no pair was cut between two of them
      expect(got.every((piece) => !piece.toString('utf8').includes('\uFFFD') || filler.includes('\uD800'))).toBe(true);
    }
  });
});
