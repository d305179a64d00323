/**
 * The `Deprecation` header (RFC 9745: `@<unix seconds>` of when the behaviour became
 * deprecated), with a Link to what replaces it.
 */

/** When the implicit `country=CH` default of name search was deprecated. */
export const CH_DEFAULT_DEPRECATED_AT = new Date('2026-01-01T00:00:00Z');

export function deprecationHeaders(since: Date, docsUrl: string): Record<string, string> {
  return {
    deprecation: `@${Math.floor(since.getTime() / 1000)}`,
    link: `<${docsUrl}>; rel="deprecation"; type="text/html"`,
  };
}
