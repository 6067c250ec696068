// The concession block's compute half: the plot's polygon against the concessions the layer answered.
import { area, booleanIntersects, feature, featureCollection, intersect, union } from '@turf/turf';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { CONCESSION_CAUTION, type ConcessionBlock, type ConcessionFacts, type ConcessionLayer, type ConcessionPrepared, MALAYSIA_EXTENT } from '../../context/concession.ts';
import { type ContextPlot, inBox } from '../../context/plot.ts';
import { round } from '../../context/wording.ts';

/**
 * An unread layer withholds on Indonesian ground: the plot's country is ID, or no country was
 * given and the centroid is not also in Malaysia's extent.
 */
function unreadWithholds(plot: ContextPlot): boolean {
  const country = plot.country?.toUpperCase() ?? null;
  return country === 'ID' || (country === null && !inBox(MALAYSIA_EXTENT, plot.centroid));
}

export function readConcession(plot: ContextPlot, layer: ConcessionLayer, readOn: string): { concession: ConcessionBlock; facts: ConcessionFacts } {
  const frame = { ...layer.provenance, caution: CONCESSION_CAUTION };
  if (!layer.checked) {
    const withholds = unreadWithholds(plot);
    return {
      concession: {
        checked: false,
        inside: null,
        share: null,
        licence_type: null,
        ...frame,
        note: `The concession layer could not be read on ${readOn} (${layer.why}): whether the plot lies in a concession is not known, and it is not reported as outside. ${
          withholds ? 'On Indonesian ground a positive finding is withheld until the check is made.' : 'On this plot the finding stands; the layer was not read.'
        } Running the plot again settles the check.`,
      },
      facts: { inside_licensed_pulpwood_concession: false, concession_layer_unavailable: withholds },
    };
  }
  const plotFeature = feature(plot.footprint);
  const hits = layer.features.filter((f) => booleanIntersects(plotFeature, f.geometry));
  if (hits.length === 0) {
    return {
      concession: {
        checked: true,
        inside: false,
        share: 0,
        licence_type: null,
        ...frame,
        note: `As read on ${readOn}, the plot lies outside every mapped concession; this is the answer of the day of issue.`,
      },
      facts: { inside_licensed_pulpwood_concession: false, concession_layer_unavailable: false },
    };
  }
  // Any intersection counts as inside; the share is of the plot's area under the union of the concessions hit.
  const concessions: Feature<Polygon | MultiPolygon> | null =
    hits.length === 1 ? feature(hits[0].geometry) : union(featureCollection(hits.map((h) => feature(h.geometry))));
  const overlap = concessions === null ? null : intersect(featureCollection([plotFeature, concessions]));
  const share = overlap === null ? 0 : Math.min(1, area(overlap) / area(plotFeature));
  const classes = [...new Set(hits.map((h) => h.licenceType))].sort();
  return {
    concession: {
      checked: true,
      inside: true,
      share: round(share, 4),
      licence_type: classes.join('; '),
      ...frame,
      note: `As read on ${readOn}, the plot intersects a licensed pulpwood concession; this is the answer of the day of issue.`,
    },
    facts: { inside_licensed_pulpwood_concession: true, concession_layer_unavailable: false },
  };
}

export function computeConcession(p: ConcessionPrepared, plot: ContextPlot): { concession: ConcessionBlock; facts: ConcessionFacts } | null {
  return p === null ? null : readConcession(plot, p.layer, p.readOn);
}
