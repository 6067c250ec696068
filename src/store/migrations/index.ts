/** Committed migrations, in order. New ones are generated with `node src/store/make-migration.ts <name>` and listed here. */
import { Migration20261122035914_initial } from './Migration20261122035914_initial.ts';
import { Migration20261122042615_plots_and_producers } from './Migration20261122042615_plots_and_producers.ts';
import { Migration20261122044737_evidence_and_outbox } from './Migration20261122044737_evidence_and_outbox.ts';
import { Migration20261124013915_sign_in_failures } from './Migration20261124013915_sign_in_failures.ts';
import { Migration20261124060134_archive_readings } from './Migration20261124060134_archive_readings.ts';
import { Migration20261124060147_shipments_and_statements } from './Migration20261124060147_shipments_and_statements.ts';
import { Migration20261124060147_studio_boundaries } from './Migration20261124060147_studio_boundaries.ts';
import { Migration20261124061728_alert_monitors_and_cases } from './Migration20261124061728_alert_monitors_and_cases.ts';
import { Migration20261124060153_webhooks } from './Migration20261124060153_webhooks.ts';
import { Migration20261124090909_alert_monitor_shipments } from './Migration20261124090909_alert_monitor_shipments.ts';
import { Migration20261124090951_plot_totals } from './Migration20261124090951_plot_totals.ts';
import { Migration20261127083932_idempotency_keys } from './Migration20261127083932_idempotency_keys.ts';
import { Migration20261127090047_monitor_unwatchable_plots } from './Migration20261127090047_monitor_unwatchable_plots.ts';
import { Migration20261127090752_sign_in_clients } from './Migration20261127090752_sign_in_clients.ts';
import { Migration20261127093615_statement_frozen_facts } from './Migration20261127093615_statement_frozen_facts.ts';
import { Migration20261127095153_shipment_goods_measure } from './Migration20261127095153_shipment_goods_measure.ts';
import { Migration20261127120000_statement_filing_options } from './Migration20261127120000_statement_filing_options.ts';

export const migrationsList = [
  { name: 'Migration20261122035914_initial', class: Migration20261122035914_initial },
  { name: 'Migration20261122042615_plots_and_producers', class: Migration20261122042615_plots_and_producers },
  { name: 'Migration20261122044737_evidence_and_outbox', class: Migration20261122044737_evidence_and_outbox },
  { name: 'Migration20261124013915_sign_in_failures', class: Migration20261124013915_sign_in_failures },
  { name: 'Migration20261124060134_archive_readings', class: Migration20261124060134_archive_readings },
  { name: 'Migration20261124060147_shipments_and_statements', class: Migration20261124060147_shipments_and_statements },
  { name: 'Migration20261124060147_studio_boundaries', class: Migration20261124060147_studio_boundaries },
  { name: 'Migration20261124061728_alert_monitors_and_cases', class: Migration20261124061728_alert_monitors_and_cases },
  { name: 'Migration20261124060153_webhooks', class: Migration20261124060153_webhooks },
  { name: 'Migration20261124090909_alert_monitor_shipments', class: Migration20261124090909_alert_monitor_shipments },
  { name: 'Migration20261124090951_plot_totals', class: Migration20261124090951_plot_totals },
  { name: 'Migration20261127083932_idempotency_keys', class: Migration20261127083932_idempotency_keys },
  { name: 'Migration20261127090047_monitor_unwatchable_plots', class: Migration20261127090047_monitor_unwatchable_plots },
  { name: 'Migration20261127090752_sign_in_clients', class: Migration20261127090752_sign_in_clients },
  { name: 'Migration20261127093615_statement_frozen_facts', class: Migration20261127093615_statement_frozen_facts },
  { name: 'Migration20261127095153_shipment_goods_measure', class: Migration20261127095153_shipment_goods_measure },
  { name: 'Migration20261127120000_statement_filing_options', class: Migration20261127120000_statement_filing_options },
];
