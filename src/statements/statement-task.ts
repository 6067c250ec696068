/**
 * The statement built on a documents thread: payload, business rules, GeoJSON, XML and the schema
 * check of up to 10,000 plots are CPU work the API's event loop never holds. Loads no database, Koa
 * or HTTP module.
 */
import { buildStatement, type StatementFacts, type V3Payload } from './payload.ts';
import { problem, type Problem } from './problems.ts';
import { checkSchema } from './schema-check.ts';
import { featureCollection } from './geolocation.ts';
import { statementSoap, statementXml } from './xml.ts';

export const STATEMENT_FORMATS = ['json', 'soap', 'xml', 'geojson'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

export interface StatementTask {
  facts: StatementFacts;
  format: StatementFormat;
  /** TRACES_SCHEMA_DIR. */
  schemaDir: string;
}

/** Spec 2.13's check answer, and for a file format the file once the statement is ready. */
export interface StatementResult {
  ready: boolean;
  schema_checked: boolean;
  problems: Problem[];
  payload: V3Payload;
  file: string | null;
}

/** Schema errors shown in a problem; the first ones name what is wrong, the rest repeat it. */
const SCHEMA_ERRORS_SHOWN = 5;

export async function statement({ facts, format, schemaDir }: StatementTask): Promise<StatementResult> {
  const built = buildStatement(facts);
  const xml = statementXml(built.payload);
  const check = await checkSchema(xml, schemaDir);
  const problems = [...built.problems];
  if (!check.checked) {
    problems.push(problem('schema_unavailable', 'SubmitDdsRequest', `The statement was not checked against the V3 schemas: ${check.reason}.`));
  } else if (!check.valid) {
    const shown = check.errors.slice(0, SCHEMA_ERRORS_SHOWN).join(' ');
    const more = check.errors.length > SCHEMA_ERRORS_SHOWN ? ` (and ${check.errors.length - SCHEMA_ERRORS_SHOWN} more)` : '';
    problems.push(problem('schema_invalid', 'SubmitDdsRequest', `The V3 schema refuses the statement: ${shown}${more}`));
  }
  const schemaChecked = check.checked && check.valid;
  const ready = schemaChecked && problems.length === 0;
  const file = !ready || format === 'json' ? null
    : format === 'xml' ? xml
    : format === 'soap' ? statementSoap(built.payload)
    : featureCollection(built.features);
  return { ready, schema_checked: schemaChecked, problems, payload: built.payload, file };
}
