/**
 * The profile's "known interactions for its ATC": rules of the service's own interaction
 * table (migrations/0300_interactions.sql) whose one side covers the product's ATC code
 * at any level. Only rows under the non-commercial licence are listed, because those go
 * to every plan unmetered; commercially licensed rows need interactions:write and credit
 * (POST /v1/interactions/check), so here they are only counted.
 */
import type { Queryable } from '../../platform/db.ts';
import { atcPrefixes } from '../interactions/rules.ts';

/** Rules listed in a profile (the total stays exact). */
export const PROFILE_INTERACTIONS = 50;

export interface ProfileInteraction {
  partnerCode: string;
  partnerLabel: string | null;
  severity: string;
  evidence: string;
  description: string;
  licence: string;
  attributions: string[];
  source: string;
}

export interface ProfileInteractions {
  atcCode: string;
  total: number;
  rules: ProfileInteraction[];
  withheldLicensed: number;
}

interface Row {
  total: number;
  licensed: number;
  rules: ProfileInteraction[];
}

/**
 * Open rules covering `atcCode`, most severe first, with the count of withheld licensed
 * rules; null when no rule of either kind applies. One statement, one row.
 */
export async function interactionsForAtc(db: Queryable, atcCode: string): Promise<ProfileInteractions | null> {
  const prefixes = atcPrefixes([atcCode]);
  const { rows } = await db.query<Row>(
    `WITH hits AS (
       SELECT r.*, CASE WHEN r.a_code = ANY($1) THEN r.b_code ELSE r.a_code END AS partner FROM interaction_rules r
        WHERE r.a_code = ANY($1) OR r.b_code = ANY($1)),
     listed AS (
       SELECT h.partner AS "partnerCode", n.name AS "partnerLabel", h.severity, h.evidence, h.description, h.licence, h.attributions,
              h.source, h.natural_key
         FROM hits h LEFT JOIN atc_nodes n ON n.code = h.partner
        ORDER BY array_position(ARRAY['contraindicated', 'major', 'moderate', 'minor'], h.severity), h.partner, h.natural_key
        LIMIT $2)
     SELECT (SELECT count(*) FROM hits)::int AS total,
            (SELECT count(*) FROM interaction_rules_licensed l WHERE l.a_code = ANY($1) OR l.b_code = ANY($1))::int AS licensed,
            coalesce((SELECT json_agg(json_build_object('partnerCode', "partnerCode", 'partnerLabel', "partnerLabel", 'severity', severity,
                       'evidence', evidence, 'description', description, 'licence', licence, 'attributions', attributions, 'source', source)
                       ORDER BY array_position(ARRAY['contraindicated', 'major', 'moderate', 'minor'], severity), "partnerCode", natural_key)
                        FROM listed), '[]') AS rules`,
    [prefixes, PROFILE_INTERACTIONS],
  );
  const row = rows[0];
  if (!row || (row.total === 0 && row.licensed === 0)) return null;
  return { atcCode, total: row.total, withheldLicensed: row.licensed, rules: row.rules };
}
