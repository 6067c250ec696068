import pkg from '../../package.json' with { type: 'json' };
import type { EvidenceDocumentInput, EvidenceDocumentOptions } from './evidence-pdf.ts';

/**
 * What an evidence document is rendered from, in order: the renderer (the service's version), the
 * options, the stored input and the chip's bytes. The PDF is a function of these alone (its dates
 * are the evidence's, src/documents/pdf.ts), so a digest of them tags it without rendering it.
 */
export function evidenceDocumentParts(input: EvidenceDocumentInput, options: EvidenceDocumentOptions): (string | Buffer)[] {
  const chip = input.map?.chip ?? null;
  const { png, ...picture } = chip ?? { png: Buffer.alloc(0) };
  const stored = { ...input, map: input.map === null ? null : { ...input.map, chip: chip === null ? null : picture } };
  return [pkg.version, JSON.stringify(options), JSON.stringify(stored), png];
}
