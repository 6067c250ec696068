/**
 * The service's refusals: one error type with a stable `code` and a message a person can act on.
 * Nothing here knows HTTP; the API maps each code to its status in one table (src/api/errors.ts),
 * and the operator commands print the code as it is.
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  /** Set on a refusal that passes once time has gone by; the API answers it with Retry-After. */
  readonly retryAfterSeconds: number | null;
  constructor(code: ErrorCode, message: string, retryAfterSeconds: number | null = null) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Refusals of a request's input: a field that is missing, malformed or names nothing usable. */
export type InputCode =
  | 'bad_body'
  | 'bad_all'
  | 'bad_rerun'
  | 'bad_plot_ids'
  | 'no_plots'
  | 'bad_format'
  | 'bad_state'
  | 'bad_limit'
  | 'bad_offset'
  | 'bad_q'
  | 'bad_url'
  | 'bad_events'
  | 'bad_active'
  | 'bad_status'
  | 'bad_cursor'
  | 'bad_endpoint_id'
  | 'bad_country'
  | 'bad_shipment_id'
  | 'bad_post_cutoff_loss'
  | 'bad_label'
  | 'bad_producer_id'
  | 'producer_id_required'
  | 'email_required'
  | 'password_required'
  | 'not_signed_in'
  | 'file_required'
  | 'bad_plan'
  | 'bad_email'
  | 'weak_password'
  | 'name_required'
  | 'bad_scene_id'
  | 'bad_provider'
  | 'bad_acquired_on'
  | 'bad_observed'
  | 'bad_plot_share'
  | 'bad_reviewer'
  | 'bad_statement'
  | 'bad_reason'
  | 'one_file_per_upload'
  | 'reference_required'
  | 'reference_too_long'
  | 'bad_hs_code'
  | 'bad_quantity'
  | 'bad_unit'
  | 'bad_destination'
  | 'bad_border_cross_country'
  | 'bad_activity'
  | 'bad_date'
  | 'bad_species'
  | 'species_scientific_name_required'
  | 'bad_represented_operator'
  | 'bad_geolocation_confidential'
  | 'bad_text'
  | 'bad_refs'
  | 'bad_geometry'
  | 'aoi_id_required'
  | 'bad_layer'
  | 'bad_cover_field'
  | 'bad_zoom'
  | 'bad_tile'
  | 'bad_scene'
  | 'bad_season'
  | 'bad_place'
  | 'bad_idempotency_key';

/** Refusals of a whole uploaded file (src/intake/errors.ts); per-plot problems are findings, never these. */
export type IntakeCode =
  | 'file_too_large'
  | 'empty_file'
  | 'unsupported_format'
  | 'bad_encoding'
  | 'bad_json'
  | 'bad_geojson'
  | 'bad_zip'
  | 'zip_too_large'
  | 'nesting_too_deep'
  | 'table_too_large'
  | 'too_many_row_errors'
  | 'bad_shapefile'
  | 'unsupported_crs'
  | 'bad_csv'
  | 'bad_kml'
  | 'too_many_plots'
  | 'too_many_vertices'
  | 'geometry_too_complex'
  | 'unknown_country'
  | 'duplicate_ref'
  | 'intake_busy'
  | 'judging_over_budget'
  | 'too_many_uploads'
  | 'upload_timeout';

/**
 * Refusals of the request as HTTP, before a route reads its fields: a method the path does not take,
 * a body the service cannot decode or is not the media type the route reads, a request line or
 * headers Node's parser refuses.
 */
export type RequestCode =
  | 'bad_request'
  | 'invalid_query'
  | 'method_not_allowed'
  | 'not_implemented'
  | 'unsupported_media_type'
  | 'unsupported_content_encoding'
  | 'bad_content_encoding'
  | 'malformed_json'
  | 'unstorable_text'
  | 'payload_too_large'
  | 'header_too_large'
  | 'request_timeout';

/** Refusals of alert adjudication and scans (spec 7.4, 7.5); a whole batch or scan is refused, never part of it. */
export type AlertCode =
  | 'no_alerts'
  | 'too_many_alerts'
  | 'ref_in_use'
  | 'axis_order_swapped'
  | 'coordinates_out_of_range'
  | 'footprint_too_large'
  | 'alert_before_cutoff'
  | 'bad_alert'
  | 'bad_product'
  | 'bad_window'
  | 'bad_min_area_ha'
  | 'geometry_not_redistributable'
  | 'note_required'
  | 'case_closed';

export type ErrorCode =
  | InputCode
  | IntakeCode
  | RequestCode
  | AlertCode
  | 'unauthorized'
  | 'forbidden'
  | 'session_required'
  | 'workspace_required'
  | 'webhook_limit'
  | 'in_flight'
  | 'not_found'
  | 'plan_tier_required'
  | 'evidence_cap'
  | 'key_limit'
  | 'no_evidence'
  | 'finding_issued'
  | 'reading_on_record'
  | 'already_withdrawn'
  | 'duplicate_reference'
  | 'not_ready'
  | 'idempotency_key_reused'
  | 'idempotency_key_in_flight'
  | 'queue_unavailable'
  | 'too_many_attempts'
  | 'cross_site'
  | 'busy'
  | 'usage';

export const unauthorized = (message = 'A valid API key (Authorization: Bearer <key>) or a signed-in session is required.') =>
  new DomainError('unauthorized', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const sessionRequired = (message: string) => new DomainError('session_required', message);
export const workspaceRequired = (message: string) => new DomainError('workspace_required', message);
export const webhookLimit = (message: string) => new DomainError('webhook_limit', message);
/** A webhook delivery still being tried cannot be sent again by hand. */
export const inFlight = (message: string) => new DomainError('in_flight', message);
export const notFound = (message: string) => new DomainError('not_found', message);
export const invalid = (code: InputCode, message: string) => new DomainError(code, message);
export const alertRefusal = (code: AlertCode | InputCode, message: string) => new DomainError(code, message);
export const badRequest = (code: RequestCode, message: string) => new DomainError(code, message);
export const planTierRequired = (message: string) => new DomainError('plan_tier_required', message);
export const evidenceCap = (message: string) => new DomainError('evidence_cap', message);
export const keyLimit = (message: string) => new DomainError('key_limit', message);
export const noEvidence = (message: string) => new DomainError('no_evidence', message);
/** An archive reading is refused on a plot that carries a positive finding. */
export const findingIssued = (message: string) => new DomainError('finding_issued', message);
/** Another archive reading is served with the plot's evidence; it is withdrawn first. */
export const readingOnRecord = (message: string) => new DomainError('reading_on_record', message);
export const alreadyWithdrawn = (message: string) => new DomainError('already_withdrawn', message);
/** An Idempotency-Key sent before with another request. */
export const idempotencyKeyReused = (message: string) => new DomainError('idempotency_key_reused', message);
/** An Idempotency-Key whose first request has not answered yet. */
export const idempotencyKeyInFlight = (message: string) => new DomainError('idempotency_key_in_flight', message);
export const queueUnavailable = (message: string) => new DomainError('queue_unavailable', message);
export const tooManyAttempts = (message: string, retryAfterSeconds: number) => new DomainError('too_many_attempts', message, retryAfterSeconds);
export const crossSite = (message: string) => new DomainError('cross_site', message);
/** The service's threads for this work have a full queue; the request passes once they catch up. */
export const busy = (message: string, retryAfterSeconds: number) => new DomainError('busy', message, retryAfterSeconds);
/** An operator command given wrongly (src/admin); never answered over HTTP. */
export const usage = (message: string) => new DomainError('usage', message);
