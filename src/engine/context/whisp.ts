// The `whisp` block (spec 2.7): a perennial-crop rating after the rule of Whisp (FAO Open Foris,
// Forest Data Partnership; data-products.md §14), computed from this service's own reads of the
// same datasets, behind a deployment switch (WHISP=on). Off, the block is `available: false`.
// Context only: it changes no verdict.

/** A dataset says yes when it covers more than this share of the plot (Whisp's default, strictly above). */
export const WHISP_SHARE_ABOVE = 0.1;
/** Whisp's datasets of the perennial-crop rule, by indicator (global datasets only). */
export const WHISP_INDICATORS = {
  ind_01_treecover: ['EUFO_2020', 'GLAD_Primary', 'TMF_undist'],
  ind_02_commodities: ['TMF_plant', 'Oil_palm_Descals', 'Cocoa_ETH', 'Rubber_RBGE', 'Soy_Song_2020'],
  ind_03_disturbance_before_2020: ['TMF_deg_before_2020', 'TMF_def_before_2020', 'GFC_loss_before_2020', 'RADD_before_2020', 'GLAD-L_before_2020', 'GLAD-S2_before_2020'],
  ind_04_disturbance_after_2020: ['TMF_deg_after_2020', 'TMF_def_after_2020', 'GFC_loss_after_2020', 'RADD_after_2020', 'GLAD-L_after_2020', 'GLAD-S2_after_2020'],
} as const;
export type WhispIndicator = keyof typeof WHISP_INDICATORS;
export type WhispDataset = (typeof WHISP_INDICATORS)[WhispIndicator][number];

/** Shares of the plot each dataset covers, for the datasets this service read. */
export type WhispMeasures = Partial<Record<WhispDataset, number>>;

export type WhispRating = 'low' | 'more_info_needed' | 'high';

export interface WhispBlock {
  available: boolean;
  risk_pcrop?: WhispRating | null;
  rule?: string;
  indicators?: Record<WhispIndicator, 'yes' | 'no' | null>;
  datasets?: Record<string, number>;
  not_read?: string[];
  source?: string;
  note: string;
}

export function whispSwitchedOff(): WhispBlock {
  return { available: false, note: 'The perennial-crop rating is switched off in this deployment (WHISP=off).' };
}

