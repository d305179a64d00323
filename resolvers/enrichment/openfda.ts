/**
 * openFDA resolvers: `/v1/us-approvals` (Drugs@FDA applications) and `/v1/us-ndc-class`
 * (pharmacologic classes from the NDC directory). openFDA answers 404 when a search
 * matches nothing, which the client passes through as a definite "nothing".
 */
import type { RequestContext } from '../context.ts';
import { fetchSource } from './upstream.ts';

interface FdaPage<T> {
  meta?: { results?: { total?: number } };
  results?: T[];
}
interface FdaSubmission {
  submission_type: string;
  submission_number: string;
  submission_status: string;
  submission_status_date: string;
  review_priority?: string;
  submission_class_code_description?: string;
}
interface FdaApplication {
  application_number: string;
  sponsor_name: string;
  openfda?: { brand_name?: string[]; generic_name?: string[]; pharm_class_epc?: string[] };
  products?: Array<{ product_number: string; brand_name: string; dosage_form: string; route: string; marketing_status: string; reference_drug: string; te_code?: string; active_ingredients?: Array<{ name: string; strength: string }> }>;
  submissions?: FdaSubmission[];
}
interface FdaNdc {
  product_ndc: string;
  brand_name?: string;
  generic_name?: string;
  labeler_name?: string;
  marketing_category?: string;
  dosage_form?: string;
  pharm_class?: string[];
}

/** Quoted openFDA search over brand and generic names; a space is OR in openFDA. */
function nameSearch(fields: string[], name: string): string {
  const term = name.trim().replace(/["\\]/g, ' ').replace(/\s+/g, ' ');
  return fields.map((f) => `${f}:"${term}"`).join(' ');
}

/** `20240201` → `2024-02-01`. */
const isoDate = (d: string | undefined): string | null => (d && /^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}` : null);

function mapApplication(a: FdaApplication): Record<string, unknown> {
  const subs = a.submissions ?? [];
  const original = subs.find((s) => s.submission_type === 'ORIG' && s.submission_status === 'AP');
  const latest = [...subs].sort((x, y) => y.submission_status_date.localeCompare(x.submission_status_date))[0];
  return {
    application_number: a.application_number,
    application_type: a.application_number.replace(/\d+$/, '') || null,
    sponsor_name: a.sponsor_name,
    brand_names: a.openfda?.brand_name ?? [...new Set((a.products ?? []).map((p) => p.brand_name))],
    generic_names: a.openfda?.generic_name ?? [],
    original_approval_date: isoDate(original?.submission_status_date),
    review_priority: original?.review_priority ?? null,
    latest_submission: latest ? { type: latest.submission_type, number: latest.submission_number, status: latest.submission_status, date: isoDate(latest.submission_status_date), class: latest.submission_class_code_description ?? null } : null,
    products: (a.products ?? []).map((p) => ({
      product_number: p.product_number,
      brand_name: p.brand_name,
      dosage_form: p.dosage_form,
      route: p.route,
      marketing_status: p.marketing_status,
      reference_drug: p.reference_drug === 'Yes',
      te_code: p.te_code ?? null,
      active_ingredients: p.active_ingredients ?? [],
    })),
  };
}

/** Drugs@FDA applications for a name, oldest approval first; null when openFDA finds none. */
export async function usApprovals(ctx: RequestContext, name: string): Promise<Record<string, unknown> | null> {
  const res = await fetchSource<FdaPage<FdaApplication>>(ctx, 'openfda', {
    path: '/drug/drugsfda.json',
    query: { search: nameSearch(['openfda.brand_name', 'openfda.generic_name', 'products.brand_name'], name), limit: 20 },
  });
  const results = res.status === 404 ? [] : (res.body?.results ?? []);
  if (!results.length) return null;
  const applications = results.map(mapApplication).sort((x, y) => String(x.original_approval_date ?? '9').localeCompare(String(y.original_approval_date ?? '9')));
  return { query: name, total: res.body?.meta?.results?.total ?? results.length, applications, source: 'openfda' };
}

const AXES: Record<string, string> = { EPC: 'epc', MoA: 'moa', PE: 'pe', CS: 'cs' };

/** `HMG-CoA Reductase Inhibitor [EPC]` → `{ axis: 'epc', name: 'HMG-CoA Reductase Inhibitor' }`. */
export function parsePharmClass(label: string): { axis: string; name: string } | null {
  const m = /^(.*)\s\[(EPC|MoA|PE|CS)\]$/.exec(label.trim());
  return m ? { axis: AXES[m[2] as string] as string, name: m[1] as string } : null;
}

/** FDA pharmacologic classes by axis and the NDC products for a name; null when none. */
export async function usNdcClass(ctx: RequestContext, name: string): Promise<Record<string, unknown> | null> {
  const res = await fetchSource<FdaPage<FdaNdc>>(ctx, 'openfda', {
    path: '/drug/ndc.json',
    query: { search: nameSearch(['brand_name', 'generic_name'], name), limit: 100 },
  });
  const results = res.status === 404 ? [] : (res.body?.results ?? []);
  if (!results.length) return null;
  const classes: Record<string, Set<string>> = { epc: new Set(), moa: new Set(), pe: new Set(), cs: new Set() };
  for (const label of results.flatMap((r) => r.pharm_class ?? [])) {
    const c = parsePharmClass(label);
    if (c) classes[c.axis]?.add(c.name);
  }
  return {
    query: name,
    classes: Object.fromEntries(Object.entries(classes).map(([axis, names]) => [axis, [...names].sort()])),
    products: results.map((r) => ({
      product_ndc: r.product_ndc, brand_name: r.brand_name ?? null, generic_name: r.generic_name ?? null,
      labeler_name: r.labeler_name ?? null, marketing_category: r.marketing_category ?? null, dosage_form: r.dosage_form ?? null,
    })),
    total: res.body?.meta?.results?.total ?? results.length,
    source: 'openfda',
  };
}
