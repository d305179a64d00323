/**
 * JSON Schemas (draft-07) of the CDS Hooks 2.0 shapes drugref answers with, written from the
 * specification (cds-hooks.hl7.org, "Discovery" and "CDS Service Response"): required
 * members, the allowed values, the 140-character summary, and the rule that optional
 * members are omitted rather than null or empty. Tests validate every answer with ajv.
 */
const NON_EMPTY = { type: 'string', minLength: 1 } as const;
const URL = { type: 'string', pattern: '^https?://' } as const;

const coding = {
  type: 'object', required: ['system', 'code'], additionalProperties: false,
  properties: { system: NON_EMPTY, code: NON_EMPTY, display: NON_EMPTY },
};

const action = {
  type: 'object', required: ['type', 'description'], additionalProperties: false,
  properties: {
    type: { enum: ['create', 'update', 'delete'] },
    description: NON_EMPTY,
    resource: { type: 'object', required: ['resourceType'], properties: { resourceType: NON_EMPTY }, minProperties: 1 },
    resourceId: NON_EMPTY,
    extension: { type: 'object', minProperties: 1 },
  },
  allOf: [
    // create and update carry the resource; delete names it with resourceId.
    { if: { properties: { type: { enum: ['create', 'update'] } } }, then: { required: ['resource'] } },
    { if: { properties: { type: { const: 'delete' } } }, then: { required: ['resourceId'] } },
  ],
};

const suggestion = {
  type: 'object', required: ['label'], additionalProperties: false,
  properties: { label: NON_EMPTY, uuid: NON_EMPTY, isRecommended: { type: 'boolean' }, actions: { type: 'array', minItems: 1, items: action }, extension: { type: 'object', minProperties: 1 } },
};

const link = {
  type: 'object', required: ['label', 'url', 'type'], additionalProperties: false,
  properties: { label: NON_EMPTY, url: URL, type: { enum: ['absolute', 'smart'] }, appContext: NON_EMPTY },
};

export const CARD_SCHEMA = {
  type: 'object', required: ['summary', 'indicator', 'source'], additionalProperties: false,
  properties: {
    uuid: NON_EMPTY,
    summary: { type: 'string', minLength: 1, maxLength: 139 },
    detail: NON_EMPTY,
    indicator: { enum: ['info', 'warning', 'critical'] },
    source: {
      type: 'object', required: ['label'], additionalProperties: false,
      properties: { label: NON_EMPTY, url: URL, icon: URL, topic: coding },
    },
    suggestions: { type: 'array', minItems: 1, items: suggestion },
    selectionBehavior: { enum: ['at-most-one', 'any'] },
    // overrideReasons from a service must carry display.
    overrideReasons: { type: 'array', minItems: 1, items: { ...coding, required: ['system', 'code', 'display'] } },
    links: { type: 'array', minItems: 1, items: link },
    extension: { type: 'object', minProperties: 1 },
  },
  // "If suggestions are present, selectionBehavior MUST also be provided."
  if: { required: ['suggestions'] }, then: { required: ['selectionBehavior'] },
};

export const RESPONSE_SCHEMA = {
  type: 'object', required: ['cards'], additionalProperties: false,
  properties: {
    cards: { type: 'array', items: CARD_SCHEMA },
    systemActions: { type: 'array', minItems: 1, items: action },
    extension: { type: 'object', minProperties: 1 },
  },
};

export const DISCOVERY_SCHEMA = {
  type: 'object', required: ['services'], additionalProperties: false,
  properties: {
    services: {
      type: 'array',
      items: {
        type: 'object', required: ['hook', 'description', 'id'], additionalProperties: false,
        properties: {
          hook: NON_EMPTY, title: NON_EMPTY, description: NON_EMPTY,
          id: { type: 'string', pattern: '^[A-Za-z0-9._-]+$' },
          prefetch: { type: 'object', minProperties: 1, additionalProperties: { type: 'string', minLength: 1 } },
          usageRequirements: NON_EMPTY,
          extension: { type: 'object', minProperties: 1 },
        },
      },
    },
    extension: { type: 'object', minProperties: 1 },
  },
};
