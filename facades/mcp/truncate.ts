/**
 * Caps tool results at the spec's 60,000 characters, so one answer cannot flood an
 * agent's context. The cut text ends with a marker that says how much was left out and
 * how to get less, and the whole result stays within the cap.
 */

/** Spec, Limits: "MCP tool result size: truncated above 60,000 characters". */
export const MAX_TOOL_RESULT_CHARS = 60_000;

/** The marker's fixed opening, so agents and tests can recognise a cut result. */
export const TRUNCATION_MARKER = '\n[drugref: result truncated';

function marker(total: number, kept: number): string {
  return `${TRUNCATION_MARKER}: showing the first ${kept} of ${total} characters; the JSON above is incomplete. Ask for less (a smaller limit, a narrower filter or a more specific code) to get a complete answer.]`;
}

/** Returns `text` unchanged when it fits, otherwise its head plus the marker, at most `max` long. */
export function truncateResult(text: string, max: number = MAX_TOOL_RESULT_CHARS): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  // The marker's length depends on the kept count; the longest form (kept = max) bounds it.
  const kept = max - marker(text.length, max).length;
  return { text: text.slice(0, kept) + marker(text.length, kept), truncated: true };
}
