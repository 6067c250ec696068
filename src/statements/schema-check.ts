/**
 * The statement's XML checked against the information system's V3 schemas with libxml2 (compiled to
 * WebAssembly, run by xmllint-wasm on a thread of its own). The schemas are the Commission's files,
 * read from TRACES_SCHEMA_DIR as published; only their import locations, which name the acceptance
 * server, are pointed at the local copies. The fault types of the error namespace, which no request
 * uses and which are not published beside them, are declared empty so the schema compiles.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';

/** Where under TRACES_SCHEMA_DIR the two V3 schemas lie, as the Commission's documents ship them. */
export const V3_SCHEMA_FILES = {
  dds: 'EUDRDueDiligenceStatementServiceV3/xsd4-due-diligence-statement-v3.xsd',
  common: 'EUDRVerifyDeclarationServiceV3/xsd2-eudr-common-v3.xsd',
} as const;

const ERROR_NS_STUB = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://ec.europa.eu/sanco/tracesnt/error/v01">
<xs:complexType name="BusinessRulesValidationExceptionType"/><xs:complexType name="CertificatePermissionDeniedExceptionType"/><xs:complexType name="NotFoundFault"/>
</xs:schema>`;

interface Schemas {
  dds: string;
  common: string;
}

const loaded = new Map<string, Promise<Schemas>>();

async function readSchemas(dir: string): Promise<Schemas> {
  const dds = await fs.readFile(path.join(dir, V3_SCHEMA_FILES.dds), 'utf8');
  const common = await fs.readFile(path.join(dir, V3_SCHEMA_FILES.common), 'utf8');
  return {
    dds: dds.replace(/schemaLocation="[^"]*\?xsd=3"/, 'schemaLocation="common.xsd"').replace(/schemaLocation="[^"]*\?xsd=5"/, 'schemaLocation="error.xsd"'),
    common,
  };
}

export type SchemaCheck = { checked: true; valid: boolean; errors: string[] } | { checked: false; reason: string };

/** WebAssembly pages (64 KiB) libxml2 may grow to: a 10,000-plot statement runs to tens of MB of XML. */
const MAX_MEMORY_PAGES = 16_384;

/** Validates one SubmitDdsRequest document against the V3 schemas under `dir`. */
export async function checkSchema(xml: string, dir: string): Promise<SchemaCheck> {
  let schemas: Schemas;
  try {
    if (!loaded.has(dir)) loaded.set(dir, readSchemas(dir));
    schemas = await loaded.get(dir)!;
  } catch (error) {
    loaded.delete(dir);
    return { checked: false, reason: `the V3 schemas could not be read (TRACES_SCHEMA_DIR must hold ${Object.values(V3_SCHEMA_FILES).join(' and ')}; ${(error as { code?: string }).code ?? 'unreadable'})` };
  }
  const result = await validateXML({
    xml: [{ fileName: 'statement.xml', contents: xml }],
    schema: [{ fileName: 'dds.xsd', contents: schemas.dds }],
    preload: [{ fileName: 'common.xsd', contents: schemas.common }, { fileName: 'error.xsd', contents: ERROR_NS_STUB }],
    maxMemoryPages: MAX_MEMORY_PAGES,
  });
  return { checked: true, valid: result.valid, errors: result.errors.map((e) => e.message.replace(/^Schemas validity error : /, '')) };
}
