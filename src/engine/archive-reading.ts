/**
 * An archive review reading (spec 2.7 `archive_review`, 2.14): what a reviewer saw on a dated
 * sub-metre archive scene of a plot, filed against the plot's evidence. It never carries the
 * imagery, and it never changes the satellite verdict or the evidence's signature: it is signed
 * on its own, under the same key, and names the digest of the evidence it was filed with.
 *
 * The rule that a reading supports cultivation before the cutoff lives here and nowhere else; the
 * plot's state (plot-state.ts) reads its answer from the register's copy.
 */
import { z } from 'zod';
import { CUTOFF } from './assemble-evidence.ts';
import { integritySchema } from './evidence-schema.ts';
import { seal, type Integrity } from './integrity.ts';
import type { SigningKey } from './signing.ts';

/** What the reviewer saw on the plot in the scene. */
export const ARCHIVE_OBSERVATIONS = ['cultivated', 'forest', 'cleared', 'unclear'] as const;
export type ArchiveObservation = (typeof ARCHIVE_OBSERVATIONS)[number];

/** The reading as filed, signed and served. */
export interface ArchiveReading {
  id: string;
  plot_id: string;
  /** `integrity.digest` of the evidence object the reading was filed with. */
  evidence_digest: string;
  scene_id: string;
  provider: string;
  /** The scene's acquisition date. */
  acquired_on: string;
  observed: ArchiveObservation;
  /** Share of the plot the scene covers (0..1]. */
  plot_share: number;
  reviewer: string;
  statement: string;
  filed_at: string;
  cutoff: string;
  supports_pre_cutoff_cultivation: boolean;
}

/** A reading with its own integrity block: the `archive_review` the evidence wrapper and the register detail carry. */
export interface ArchiveReview {
  reading: ArchiveReading;
  integrity: Integrity;
}

/** What a reviewer files; the service adds the ids, the evidence digest, the time and the rule's answer. */
export type ReadingInput = Pick<ArchiveReading, 'scene_id' | 'provider' | 'acquired_on' | 'observed' | 'plot_share' | 'reviewer' | 'statement'>;

/**
 * Cultivation before the cutoff is supported only by a scene dated on or before the cutoff, on
 * which the plot was seen cultivated, covering the whole plot: a part seen cultivated says nothing
 * of the rest.
 */
export function supportsPreCutoffCultivation(reading: Pick<ArchiveReading, 'acquired_on' | 'observed' | 'plot_share'>): boolean {
  return reading.acquired_on <= CUTOFF && reading.observed === 'cultivated' && reading.plot_share >= 1;
}

/** The reading of `input` filed against the evidence whose digest is given, sealed under the service's key. */
export function sealReading(
  input: ReadingInput,
  filing: { id: string; plotId: string; evidenceDigest: string; at: Date },
  key: SigningKey,
): ArchiveReview {
  const reading: ArchiveReading = {
    id: filing.id,
    plot_id: filing.plotId,
    evidence_digest: filing.evidenceDigest,
    scene_id: input.scene_id,
    provider: input.provider,
    acquired_on: input.acquired_on,
    observed: input.observed,
    plot_share: input.plot_share,
    reviewer: input.reviewer,
    statement: input.statement,
    filed_at: filing.at.toISOString(),
    cutoff: CUTOFF,
    supports_pre_cutoff_cultivation: supportsPreCutoffCultivation(input),
  };
  return { reading, integrity: seal(reading, key) };
}

export const archiveReadingSchema: z.ZodType<ArchiveReading> = z.object({
  id: z.uuid(),
  plot_id: z.uuid(),
  evidence_digest: z.string().regex(/^[0-9a-f]{64}$/).describe('`integrity.digest` of the evidence object the reading was filed with; the reading never changes that object or its signature.'),
  scene_id: z.string().describe('The archive scene\'s identifier at its provider.'),
  provider: z.string().describe('Who holds the scene.'),
  acquired_on: z.iso.date().describe('The scene\'s acquisition date.'),
  observed: z.enum(ARCHIVE_OBSERVATIONS).describe('What the reviewer saw on the plot in the scene.'),
  plot_share: z.number().gt(0).max(1).describe('Share of the plot the scene covers (0 to 1).'),
  reviewer: z.string().describe('The person who read the scene, as they sign.'),
  statement: z.string().describe('The reviewer\'s statement of what the scene shows.'),
  filed_at: z.iso.datetime({ offset: true }),
  cutoff: z.iso.date(),
  supports_pre_cutoff_cultivation: z.boolean().describe(
    'true when the scene is dated on or before `cutoff`, shows the plot `cultivated` and covers the whole plot (`plot_share` 1); the plot\'s `state` then reads "Cultivated on the archive scene date" (tone `finding`). The evidence verdict is unchanged either way.',
  ),
}).describe('A dated reading of a sub-metre archive scene filed against the plot\'s evidence; never the imagery itself.');

export const archiveReviewSchema: z.ZodType<ArchiveReview> = z.object({
  reading: archiveReadingSchema,
  integrity: integritySchema,
}).describe(
  'The archive review served with the evidence: the reading on record and its own integrity block, checked as the evidence is but over `reading`: `integrity.digest` is the lower-case hex SHA-256 of the RFC 8785 canonical JSON of `reading`, `integrity.signature` the base64 Ed25519 signature of the digest\'s 32 bytes under the same key as the evidence (GET /evidence/public-key).',
);
