/** The JSON error body every /v1 refusal has (`error` first), as the OpenAPI document describes it. */
import { ERRORS } from '../../platform/errors.ts';
import type { JsonSchema } from '../routes/types.ts';

export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error', 'message'],
  additionalProperties: true,
  description: 'Open by design: `error` and `message`, plus the fields the particular error names (docs/errors.md), e.g. `allow`, `resets`, `pricing_url`.',
  properties: {
    error: { type: 'string', enum: Object.keys(ERRORS), description: 'Stable machine-readable code.' },
    message: { type: 'string', description: 'Prose for humans; may be reworded.' },
    details: {
      type: 'array',
      description: 'What was refused, one entry per problem (validation errors).',
      items: {
        type: 'object',
        additionalProperties: true,
        description: 'Open by design: `location` and `field` of the problem and its `message`, plus what the check names.',
        properties: {
          location: { type: 'string', description: 'Where the problem is: `body`, `query`, `path` or `header`.' },
          field: { type: ['string', 'null'], description: 'The field at fault; null when the refusal is about the location as a whole (a body that is not JSON, an unnamed query key).' },
          message: { type: 'string' },
        },
      },
    },
    tier: { type: 'string' },
    missing_scope: { type: 'string' },
    limit: { type: 'number' },
    window: { type: 'string' },
    resets: { type: 'string', format: 'date-time' },
    upgrade_url: { type: 'string' },
  },
};
