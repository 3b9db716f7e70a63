// milli's EmbedderFailureModes::parse_from_str: segments trimmed, empty ones skipped, any other one refused.
import { describe, expect, it } from 'vitest';
import { parseFailureModes, STRICT_FAILURE_MODES } from '../../../src/embedders/failure-modes.js';

describe('parseFailureModes', () => {
  it('reads nothing from an unset or empty variable', () => {
    expect(parseFailureModes(undefined)).toEqual(STRICT_FAILURE_MODES);
    expect(parseFailureModes('')).toEqual(STRICT_FAILURE_MODES);
    expect(parseFailureModes(' , ,')).toEqual(STRICT_FAILURE_MODES);
  });

  it('reads each mode, trimmed as Rust trims, in any order and repeated', () => {
    expect(parseFailureModes('ignore_embedder_failures')).toEqual({ ignoreDocumentTemplateFailures: false, ignoreEmbedderFailures: true });
    expect(parseFailureModes('\tignore_document_template_failures\u2003,ignore_embedder_failures,ignore_embedder_failures')).toEqual({
      ignoreDocumentTemplateFailures: true,
      ignoreEmbedderFailures: true,
    });
  });

  it('refuses an unknown segment with the message v1.50 panics with', () => {
    expect(() => parseFailureModes('ignore_embedder_failures, Ignore_Embedder_Failures')).toThrow(
      'Unrecognized segment value for `MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES`: Ignore_Embedder_Failures',
    );
  });
});
