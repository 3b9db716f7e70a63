// A Hugging Face embedder dumped before v1.14 has no `pooling`: it is imported as `forceMean`, as v1.50's dump reader does.
import { describe, expect, it } from 'vitest';
import { withDumpedPooling } from '../../../src/dumps/import.js';

describe('withDumpedPooling', () => {
  it('gives a Hugging Face embedder without pooling forceMean and leaves the others as dumped', () => {
    expect(
      withDumpedPooling({
        old: { source: 'huggingFace', model: 'BAAI/bge-base-en-v1.5' },
        reset: { source: 'huggingFace', pooling: null },
        chosen: { source: 'huggingFace', pooling: 'useModel' },
        rest: { source: 'rest', url: 'http://example.com' },
      }),
    ).toEqual({
      old: { source: 'huggingFace', model: 'BAAI/bge-base-en-v1.5', pooling: 'forceMean' },
      reset: { source: 'huggingFace', pooling: 'forceMean' },
      chosen: { source: 'huggingFace', pooling: 'useModel' },
      rest: { source: 'rest', url: 'http://example.com' },
    });
  });
});
