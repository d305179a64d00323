/**
 * Schemas of the internal schema's `JSON`-scalar fields, by `Type.field`: the GraphQL
 * types cannot say what such a field holds, so this table does, once, for every route
 * that selects it. Maps keyed by data (a register's natural key, section names) are open
 * by design and say so; the enrichment passthroughs have their own table.
 */
import type { JsonSchema } from '../routes/types.ts';
import { openObject } from './answer-schema.ts';
import { ENRICHMENT_SCHEMAS } from './enrichment-schemas.ts';
import { FHIR_CAPABILITIES, FHIR_MEDICATION, FHIR_PARAMETERS, FHIR_VALUE_SET } from './fhir-schemas.ts';

const num = (description: string): JsonSchema => ({ type: 'number', description });
const str = (description: string): JsonSchema => ({ type: 'string', description });

const SL_ENTRY: JsonSchema = {
  type: 'object',
  required: ['listed'],
  additionalProperties: false,
  description: 'Swiss Spezialitätenliste entry of the pack (docs/reimbursement.md).',
  properties: {
    listed: { type: 'boolean', description: 'On the SL.' },
    public_price: num('Capped public price, CHF.'),
    ex_factory_price: num('Capped ex-factory price, CHF.'),
    coinsurance_percent: num('Co-insurance share in percent (10, 20 or 40).'),
    limitation: {
      type: ['object', 'null'], required: ['text'], additionalProperties: false,
      properties: { text: str('All limitation texts joined.'), points: num('Limitation points of the pack.') },
    },
    limitations: {
      type: 'array',
      items: {
        type: 'object', required: ['text', 'level'], additionalProperties: false,
        properties: {
          code: str('BAG limitation code, e.g. ALFACALCIDOL.01.'), type: str('DIA, PKT, KOM …'), value: num('Points or amount.'),
          niveau: str('Limitation level (IP, IA …).'), text: str('Limitation text.'),
          level: { type: 'string', enum: ['preparation', 'pack'], description: 'Attached to the whole preparation or to this pack.' },
          valid_from: str('Valid from (YYYY-MM-DD).'),
        },
      },
    },
    flag: { type: 'string', enum: ['G', 'O'], description: 'Generic or original.' },
    listed_since: str('On the SL since (YYYY-MM-DD).'),
    group_code: str('Pharma group code of the SL group prices.'),
    group_price: num('Price of that group, CHF.'),
  },
};

const STRING_MAP = (description: string): JsonSchema => ({ ...openObject(description), additionalProperties: { type: 'string' } });

export const JSON_FIELD_SCHEMAS: Record<string, JsonSchema> = {
  'Pack.sl': SL_ENTRY,
  'PricedPack.sl': SL_ENTRY,
  'Drug.fhirMedication': FHIR_MEDICATION,
  'Drug.attributes': openObject('other register facts, keyed by their documented names (docs/ingestion.md).'),
  'Monograph.sections': STRING_MAP('section name (indications, contraindications, warnings, dosage …) to its text.'),
  'Substance.names': STRING_MAP('vocabulary or language (inn, usan, rxnorm, de, fr …) to the name there.'),
  'SubstanceXref.names': STRING_MAP('vocabulary or language (inn, usan, rxnorm, de, fr …) to the name there.'),
  'DrugProfile.adverseEventSignal': { type: 'null', description: 'Always null: no adverse-event reporting source is ingested yet (see `unavailable`).' },
  'Change.naturalKey': openObject('the register row\'s natural key, whose fields depend on the table and source (e.g. `{ "gtin": "7680…" }`).'),
  'Change.before': openObject('the row as stored before the change; its columns depend on `table_name`.'),
  'Change.after': openObject('the row as stored after the change; its columns depend on `table_name`.'),
  'ByolQueryResult.request': {
    type: 'object', required: ['kind', 'method', 'provider_path'], additionalProperties: false,
    properties: {
      kind: { type: 'string', enum: ['search', 'record', 'path'] }, q: str('The search text given.'), id: str('The record id given.'),
      path: str('The provider path given.'), method: { type: 'string', enum: ['GET'] }, provider_path: str('The provider path called.'),
    },
  },
  'ByolQueryResult.data': { description: 'Open by design: the provider\'s answer body as it came (JSON of any shape, or text), null when empty.' },
  'ChatCitation.records': {
    type: 'array',
    items: { type: 'object', additionalProperties: false, properties: { id: str('Record id.'), code: str('Record code.'), name: str('Record name.') } },
  },
  'ChatToolCall.arguments': { description: 'Open by design: the arguments the model passed to the tool, as it sent them (null when unparseable).' },
  'CdsService.prefetch': STRING_MAP('prefetch key to FHIR query template.'),
  'CdsAction.resource': openObject('the FHIR resource to create (a MedicationRequest).'),
  'Query.fhirCapabilities': FHIR_CAPABILITIES,
  'Query.fhirLookup': FHIR_PARAMETERS,
  'Query.fhirValidateCode': FHIR_PARAMETERS,
  'Query.fhirTranslate': FHIR_PARAMETERS,
  'Query.fhirExpand': FHIR_VALUE_SET,
  ...ENRICHMENT_SCHEMAS,
};
