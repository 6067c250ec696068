/**
 * The V3 payload written as XML: the `SubmitDdsRequest` element alone (the `xml` file) and inside the
 * SOAP envelope the information system's submitDds operation takes (the `soap` file), whose
 * WS-Security header carries placeholders the caller fills from its own account. Elements follow
 * the payload's order, which is the schema's; a value the caller has not given is left out.
 */
import type { V3Operator } from './filing-options.ts';
import type { V3Commodity, V3Payload } from './payload.ts';

export const DDS_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3';
export const COMMON_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/common/v3';

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `<prefix:name>value</prefix:name>`, or nothing for a value not given. */
const el = (name: string, value: string | number | boolean | null | undefined) => (value === null || value === undefined ? '' : `<${name}>${escape(String(value))}</${name}>`);

function commodityXml(c: V3Commodity): string {
  const m = c.descriptors.goodsMeasure;
  return [
    '<dds:commodities>',
    el('dds:position', c.position),
    '<dds:descriptors>',
    el('eudrCommon:descriptionOfGoods', c.descriptors.descriptionOfGoods),
    '<eudrCommon:goodsMeasure>',
    el('eudrCommon:netWeight', m.netWeight),
    el('eudrCommon:supplementaryUnit', m.supplementaryUnit),
    el('eudrCommon:supplementaryUnitQualifier', m.supplementaryUnitQualifier),
    '</eudrCommon:goodsMeasure>',
    '</dds:descriptors>',
    el('dds:hsHeading', c.hsHeading),
    ...(c.speciesInfo ?? []).map((s) => `<dds:speciesInfo>${el('dds:scientificName', s.scientificName)}${el('dds:commonName', s.commonName)}</dds:speciesInfo>`),
    ...c.producers.map((p) => `<dds:producers>${el('dds:position', p.position)}${el('dds:country', p.country)}${el('dds:name', p.name)}${el('dds:geometryGeojson', p.geometryGeojson)}</dds:producers>`),
    '</dds:commodities>',
  ].join('');
}

/** EconomicOperatorIdentificationType's elements, all in the common namespace. */
function operatorXml(o: V3Operator): string {
  const a = o.operatorAddress;
  return [
    ...(o.operatorReferenceNumber ?? []).map((r) => `<eudrCommon:operatorReferenceNumber>${el('eudrCommon:identifierType', r.identifierType)}${el('eudrCommon:identifierValue', r.identifierValue)}</eudrCommon:operatorReferenceNumber>`),
    a === undefined ? '' : `<eudrCommon:operatorAddress>${el('eudrCommon:country', a.country)}${el('eudrCommon:street', a.street)}${el('eudrCommon:postalCode', a.postalCode)}${el('eudrCommon:city', a.city)}${el('eudrCommon:fullAddress', a.fullAddress)}</eudrCommon:operatorAddress>`,
    el('eudrCommon:operatorEmail', o.operatorEmail),
    el('eudrCommon:operatorPhone', o.operatorPhone),
    el('eudrCommon:operatorName', o.operatorName),
  ].join('');
}

/** The SubmitDdsRequest element; `declare` adds the namespace declarations a standalone document needs. */
function requestXml(payload: V3Payload, declare: boolean): string {
  const s = payload.statement;
  const ns = declare ? ` xmlns:dds="${DDS_NS}" xmlns:eudrCommon="${COMMON_NS}"` : '';
  return [
    `<dds:SubmitDdsRequest${ns}>`,
    el('dds:operatorRole', payload.operatorRole),
    '<dds:statement>',
    el('dds:internalReferenceNumber', s.internalReferenceNumber),
    el('dds:activityType', s.activityType),
    s.representedOperator === undefined ? '' : `<dds:representedOperator>${operatorXml(s.representedOperator)}</dds:representedOperator>`,
    el('dds:countryOfActivity', s.countryOfActivity),
    el('dds:borderCrossCountry', s.borderCrossCountry),
    ...s.commodities.map(commodityXml),
    el('dds:geoLocationConfidential', s.geoLocationConfidential),
    '</dds:statement>',
    '</dds:SubmitDdsRequest>',
  ].join('');
}

/** The statement's `xml` file: SubmitDdsRequest as a document of its own. */
export function statementXml(payload: V3Payload): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${requestXml(payload, true)}\n`;
}

/** The WS-Security fields the caller fills with its own account's credentials before sending. */
export const SOAP_PLACEHOLDERS = ['wsse_created', 'wsse_expires', 'wsse_username', 'wsse_passwordDigest', 'wsse_nonce', 'web_service_client_id'] as const;

/** The statement's `soap` file: the submitDds request of the EUDRDueDiligenceStatementServiceV3 endpoint. */
export function statementSoap(payload: V3Payload): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:v4="http://ec.europa.eu/sanco/tracesnt/base/v4" xmlns:dds="${DDS_NS}" xmlns:eudrCommon="${COMMON_NS}">
<soapenv:Header>
<wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd">
<wsu:Timestamp wsu:Id="TS-1"><wsu:Created>{{wsse_created}}</wsu:Created><wsu:Expires>{{wsse_expires}}</wsu:Expires></wsu:Timestamp>
<wsse:UsernameToken wsu:Id="UT-1"><wsse:Username>{{wsse_username}}</wsse:Username><wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">{{wsse_passwordDigest}}</wsse:Password><wsse:Nonce EncodingType="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary">{{wsse_nonce}}</wsse:Nonce><wsu:Created>{{wsse_created}}</wsu:Created></wsse:UsernameToken>
</wsse:Security>
<v4:WebServiceClientId>{{web_service_client_id}}</v4:WebServiceClientId>
</soapenv:Header>
<soapenv:Body>${requestXml(payload, false)}</soapenv:Body>
</soapenv:Envelope>
`;
}
