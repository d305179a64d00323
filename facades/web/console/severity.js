/**
 * Interaction severity as a badge: colour plus the word (never colour alone), ordered
 * from the most to the least serious.
 */
import { h } from './dom.js';

export const SEVERITY_ORDER = ['contraindicated', 'major', 'moderate', 'minor'];

const LABELS = { contraindicated: 'Contraindicated', major: 'Major', moderate: 'Moderate', minor: 'Minor' };

/** A badge element for one severity. */
export function severityBadge(severity) {
  return h('span', { class: `sev-badge sev-badge-${SEVERITY_ORDER.includes(severity) ? severity : 'unknown'}` }, LABELS[severity] ?? String(severity));
}

/** Sort rank: contraindicated first, unknown last. */
export function severityRank(severity) {
  const i = SEVERITY_ORDER.indexOf(severity);
  return i === -1 ? SEVERITY_ORDER.length : i;
}
