import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { archiveReviewPrice } from '../../src/accounts/archive-review-price.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('archive review price', () => {
  test('unpriced until set: priced false, every figure null, and the line says it is quoted on request', () => {
    const price = archiveReviewPrice(loadConfig({}).archiveReview);
    assert.deepEqual(price, {
      priced: false,
      price_usd: null,
      volume_price_usd: null,
      volume_from_plots: null,
      delivery_days: null,
      line: 'Archive imagery review: quoted on request.',
    });
  });

  test('a set price, volume price and delivery time are served and written in the line', () => {
    const config = loadConfig({
      ARCHIVE_REVIEW_PRICE_USD: '45',
      ARCHIVE_REVIEW_VOLUME_PRICE_USD: '30.50',
      ARCHIVE_REVIEW_VOLUME_FROM_PLOTS: '1000',
      ARCHIVE_REVIEW_DELIVERY_DAYS: '5',
    });
    const price = archiveReviewPrice(config.archiveReview);
    assert.equal(price.priced, true);
    assert.equal(price.price_usd, 45);
    assert.equal(price.volume_price_usd, 30.5);
    assert.equal(price.volume_from_plots, 1000);
    assert.equal(price.delivery_days, 5);
    assert.equal(price.line, 'Archive imagery review: USD 45.00 a plot, USD 30.50 a plot from 1,000 plots. Delivered within 5 days.');
  });

  test('a delivery time without a price stays quoted on request', () => {
    const price = archiveReviewPrice(loadConfig({ ARCHIVE_REVIEW_DELIVERY_DAYS: '1' }).archiveReview);
    assert.equal(price.priced, false);
    assert.equal(price.line, 'Archive imagery review: quoted on request. Delivered within 1 day.');
  });

  const wrong: [string, Record<string, string>][] = [
    ['ARCHIVE_REVIEW_PRICE_USD', { ARCHIVE_REVIEW_PRICE_USD: 'forty' }],
    ['ARCHIVE_REVIEW_PRICE_USD', { ARCHIVE_REVIEW_PRICE_USD: '0' }],
    ['ARCHIVE_REVIEW_PRICE_USD', { ARCHIVE_REVIEW_PRICE_USD: '45.123' }],
    ['ARCHIVE_REVIEW_VOLUME_PRICE_USD', { ARCHIVE_REVIEW_VOLUME_PRICE_USD: '30', ARCHIVE_REVIEW_VOLUME_FROM_PLOTS: '100' }],
    ['ARCHIVE_REVIEW_VOLUME_PRICE_USD', { ARCHIVE_REVIEW_PRICE_USD: '30', ARCHIVE_REVIEW_VOLUME_PRICE_USD: '45', ARCHIVE_REVIEW_VOLUME_FROM_PLOTS: '100' }],
    ['ARCHIVE_REVIEW_VOLUME_FROM_PLOTS', { ARCHIVE_REVIEW_PRICE_USD: '45', ARCHIVE_REVIEW_VOLUME_PRICE_USD: '30' }],
    ['ARCHIVE_REVIEW_VOLUME_FROM_PLOTS', { ARCHIVE_REVIEW_PRICE_USD: '45', ARCHIVE_REVIEW_VOLUME_FROM_PLOTS: '100' }],
    ['ARCHIVE_REVIEW_VOLUME_FROM_PLOTS', { ARCHIVE_REVIEW_PRICE_USD: '45', ARCHIVE_REVIEW_VOLUME_PRICE_USD: '30', ARCHIVE_REVIEW_VOLUME_FROM_PLOTS: '1' }],
    ['ARCHIVE_REVIEW_DELIVERY_DAYS', { ARCHIVE_REVIEW_DELIVERY_DAYS: '0' }],
    ['ARCHIVE_REVIEW_DELIVERY_DAYS', { ARCHIVE_REVIEW_DELIVERY_DAYS: 'a week' }],
  ];
  for (const [variable, env] of wrong) {
    test(`${JSON.stringify(env)} stops the start naming ${variable}`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && err.variable === variable && err.message.startsWith(`${variable}:`),
      );
    });
  }
});
