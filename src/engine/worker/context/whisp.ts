// The whisp block's compute half: the shares of Whisp's datasets over the plot from the windows the
// other blocks read, and the rating after Whisp's rule.
import type { PixelMask } from '../../kernels/rasterise-mask.ts';
import type { HistoryLayers } from '../../context/history.ts';
import { WHISP_INDICATORS, WHISP_SHARE_ABOVE, type WhispBlock, type WhispDataset, type WhispIndicator, type WhispMeasures, type WhispRating } from '../../context/whisp.ts';
import { round } from '../../context/wording.ts';
import { GFC2020 } from '../../sources/products/eu-forest-maps/codes.ts';
import { lossYear } from '../../sources/products/hansen/codes.ts';
import { ANNUAL_CHANGE, isPlantationSubtype } from '../../sources/products/tmf/codes.ts';

const CUTOFF_YEAR = 2020;
/** Whisp counts disturbance before the cutoff from 2000. */
const DISTURBANCE_FROM = 2000;
/** Hansen's loss counts where the canopy of 2000 was above 10%. */
const HANSEN_CANOPY_ABOVE = 10;

const RULE =
  'Perennial-crop rating after Whisp: low when no dataset shows tree cover in 2020 (indicator 1 no), or a commodity is mapped on the plot (indicator 2 yes), or it was disturbed from 2000 to 2020 (indicator 3 yes); otherwise more information is needed when no disturbance after 2020 is seen (indicator 4 no), and high when it is. A dataset says yes when it covers more than 10% of the plot.';
const SOURCE = 'Whisp (FAO Open Foris and the Forest Data Partnership, MIT licence), rule add_risk_pcrop_col';

export function readWhisp(measures: WhispMeasures): WhispBlock {
  const indicators = {} as Record<WhispIndicator, 'yes' | 'no' | null>;
  const notRead: string[] = [];
  for (const [indicator, datasets] of Object.entries(WHISP_INDICATORS) as Array<[WhispIndicator, readonly WhispDataset[]]>) {
    const read = datasets.filter((d) => measures[d] !== undefined);
    notRead.push(...datasets.filter((d) => measures[d] === undefined));
    indicators[indicator] = read.length === 0 ? null : read.some((d) => (measures[d] as number) > WHISP_SHARE_ABOVE) ? 'yes' : 'no';
  }
  const { ind_01_treecover: i1, ind_02_commodities: i2, ind_03_disturbance_before_2020: i3, ind_04_disturbance_after_2020: i4 } = indicators;
  let rating: WhispRating | null;
  if (i1 === 'no' || i2 === 'yes' || i3 === 'yes') rating = 'low';
  else if (i1 === null || i2 === null || i3 === null || i4 === null) rating = null;
  else rating = i4 === 'no' ? 'more_info_needed' : 'high';
  return {
    available: true,
    risk_pcrop: rating,
    rule: RULE,
    indicators,
    datasets: Object.fromEntries(Object.entries(measures).map(([k, v]) => [k, round(v as number, 4)])),
    not_read: notRead,
    source: SOURCE,
    note:
      rating === null
        ? 'Computed by this service from its own reads, not by Whisp itself. An indicator none of whose datasets could be read leaves the rating open.'
        : 'Computed by this service from its own reads, not by Whisp itself; the datasets not read count as saying no, as Whisp counts a dataset without data.',
  };
}

/** Whisp's moist-forest datasets over the plot (pixels of the TMF window, the plot's pixel count the denominator). */
export function whispFromTmf(mask: PixelMask, layers: HistoryLayers): WhispMeasures {
  let undisturbed = 0, plantation = 0, degBefore = 0, defBefore = 0, degAfter = 0, defAfter = 0;
  const { spans } = mask;
  for (let s = 0; s < spans.length; s += 2) {
    for (let i = spans[s]; i < spans[s + 1]; i++) {
      const def = layers.DeforestationYear[i];
      const deg = layers.DegradationYear[i];
      const sub = layers.TransitionMap_Subtypes[i];
      if (layers.AnnualChange_2020[i] === ANNUAL_CHANGE.UNDISTURBED) undisturbed++;
      // Plantation sub-types, dropping pixels deforested after the cutoff (Whisp's TMF_plant).
      if (isPlantationSubtype(sub) && !(def > CUTOFF_YEAR)) plantation++;
      if (deg >= DISTURBANCE_FROM && deg <= CUTOFF_YEAR) degBefore++;
      if (def >= DISTURBANCE_FROM && def <= CUTOFF_YEAR) defBefore++;
      if (deg > CUTOFF_YEAR) degAfter++;
      if (def > CUTOFF_YEAR) defAfter++;
    }
  }
  const n = mask.count;
  if (n === 0) return {};
  return {
    TMF_undist: undisturbed / n,
    TMF_plant: plantation / n,
    TMF_deg_before_2020: degBefore / n,
    TMF_def_before_2020: defBefore / n,
    TMF_deg_after_2020: degAfter / n,
    TMF_def_after_2020: defAfter / n,
  };
}

/** Hansen loss over the plot, before and after the cutoff, where the canopy of 2000 was above 10%. */
export function whispFromHansen(mask: PixelMask, treecover2000: Uint8Array, lossyear: Uint8Array): WhispMeasures {
  // 0 before the cutoff, 1 after, 2 no loss, by raw loss-year value.
  const side = Uint8Array.from({ length: 256 }, (_, v) => {
    const year = lossYear(v);
    return year === null ? 2 : year <= CUTOFF_YEAR ? 0 : 1;
  });
  const counts = [0, 0, 0];
  const { spans } = mask;
  for (let s = 0; s < spans.length; s += 2) {
    for (let i = spans[s]; i < spans[s + 1]; i++) {
      if (treecover2000[i] > HANSEN_CANOPY_ABOVE) counts[side[lossyear[i]]]++;
    }
  }
  const [before, after] = counts;
  const n = mask.count;
  return n === 0 ? {} : { GFC_loss_before_2020: before / n, GFC_loss_after_2020: after / n };
}

/** The Commission's 2020 forest cover over the plot (Whisp's EUFO_2020). */
export function whispFromGfc(mask: PixelMask, gfc: Uint8Array): WhispMeasures {
  let forest = 0;
  const { spans } = mask;
  for (let s = 0; s < spans.length; s += 2) for (let i = spans[s]; i < spans[s + 1]; i++) if (gfc[i] === GFC2020.FOREST) forest++;
  return mask.count === 0 ? {} : { EUFO_2020: forest / mask.count };
}
