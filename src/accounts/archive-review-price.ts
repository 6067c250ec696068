import type { ArchiveReviewConfig } from '../config.ts';

/**
 * `archive_review_price` (spec 2.14): what a review of a withheld plot at sub-metre resolution costs.
 * Served on the register list, the book summary, shipments and the archive coverage route (there as
 * `review_price`); built here only, from the deployment's configuration.
 */
export interface ArchiveReviewPrice {
  priced: boolean;
  price_usd: number | null;
  volume_price_usd: number | null;
  volume_from_plots: number | null;
  delivery_days: number | null;
  /** Display text. */
  line: string;
}

const dollars = (amount: number) => `USD ${amount.toFixed(2)}`;

export function archiveReviewPrice(config: ArchiveReviewConfig): ArchiveReviewPrice {
  const delivery = config.deliveryDays === null ? '' : ` Delivered within ${config.deliveryDays} day${config.deliveryDays === 1 ? '' : 's'}.`;
  let line: string;
  if (config.priceUsd === null) {
    line = `Archive imagery review: quoted on request.${delivery}`;
  } else {
    const volume =
      config.volumePriceUsd !== null && config.volumeFromPlots !== null
        ? `, ${dollars(config.volumePriceUsd)} a plot from ${config.volumeFromPlots.toLocaleString('en')} plots`
        : '';
    line = `Archive imagery review: ${dollars(config.priceUsd)} a plot${volume}.${delivery}`;
  }
  return {
    priced: config.priceUsd !== null,
    price_usd: config.priceUsd,
    volume_price_usd: config.volumePriceUsd,
    volume_from_plots: config.volumeFromPlots,
    delivery_days: config.deliveryDays,
    line,
  };
}
