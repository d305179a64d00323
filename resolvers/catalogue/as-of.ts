/**
 * The `as_of` parameter of GET /v1/drugs/{id}, /v1/drugs/lookup and /v1/packs/{system}/{code}
 * (docs/api-decisions.md "Identifier status as of a date"): an ISO 8601 date or a date-time
 * with an offset, turned into the instant the answer describes.
 *
 * A date stands for the close of that day in UTC (the registers as they stood at the end of
 * it). A date that has begun somewhere on Earth (UTC+14) is accepted and clamped to now, so a
 * client a day ahead of UTC can send its own "today"; a later date, or a date-time more than
 * a few minutes ahead of the server clock, is refused: drugref knows no register's future.
 */
import { validationError } from '../../platform/errors.ts';

/** The instant a dated answer describes, and the value as the caller sent it. */
export interface AsOf {
  requested: string;
  at: Date;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;
const DAY_MS = 86_400_000;
/** How far ahead of UTC a calendar day can start (Line Islands, UTC+14). */
const EARLIEST_ZONE_MS = 14 * 3_600_000;
/** Client clocks running ahead of ours by up to this much are treated as now. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** JSON Schema of the query parameter (shape only; the calendar and the future are checked here). */
export const AS_OF_SCHEMA = {
  type: 'string',
  minLength: 10,
  maxLength: 40,
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?([Zz]|[+-][0-9]{2}:[0-9]{2}))?$',
  description: 'ISO 8601 date (YYYY-MM-DD: the close of that day, UTC) or date-time with an offset. The record and each pack\'s status as the registers stood then, reconstructed from the change log; not after today.',
} as const;

function invalid(message: string) {
  return validationError(`Invalid request: ${message}`, [{ location: 'query', field: 'as_of', message }]);
}

/** Milliseconds of midnight UTC of a real calendar date, or null (2024-02-30 is none). */
function calendarDay(year: string, month: string, day: string): number | null {
  // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
  const back = new Date(0);
  back.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  const real = back.getUTCFullYear() === Number(year) && back.getUTCMonth() === Number(month) - 1 && back.getUTCDate() === Number(day);
  return real && Number(year) >= 1 ? back.getTime() : null;
}

function dateTimeInstant(value: string): number | null {
  const m = DATE_TIME.exec(value);
  if (!m || calendarDay(m[1]!, m[2]!, m[3]!) === null) return null;
  const [hour, minute, second, offHour, offMinute] = [m[4], m[5], m[6] ?? '0', m[7] ?? '0', m[8] ?? '0'].map(Number) as number[];
  if (hour! > 23 || minute! > 59 || second! > 59 || offHour! > 23 || offMinute! > 59) return null;
  const ms = Date.parse(value.toUpperCase());
  return Number.isNaN(ms) ? null : ms;
}

/** Parses `as_of` against the request clock; a 422 `validation` naming `as_of` when it cannot be one. */
export function parseAsOf(value: string, now: Date): AsOf {
  const date = DATE.exec(value);
  if (date) {
    const start = calendarDay(date[1]!, date[2]!, date[3]!);
    if (start === null) throw invalid(`as_of "${value}" is not a calendar date.`);
    if (start - EARLIEST_ZONE_MS > now.getTime()) throw invalid(`as_of ${value} lies in the future; the registers are known up to today.`);
    return { requested: value, at: new Date(Math.min(start + DAY_MS - 1, now.getTime())) };
  }
  const instant = dateTimeInstant(value);
  if (instant === null) throw invalid('as_of must be an ISO 8601 date (YYYY-MM-DD) or a date-time with an offset (2024-03-01T12:00:00Z).');
  if (instant - CLOCK_SKEW_MS > now.getTime()) throw invalid(`as_of ${value} lies in the future; the registers are known up to now.`);
  return { requested: value, at: new Date(Math.min(instant, now.getTime())) };
}
