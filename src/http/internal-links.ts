/**
 * Text written by the platform for a person (a case opened from an alert says which alert, a KYT
 * decision which page) names records by their page's path: `/alert/<id>`, `/kyt/decision/<code>`.
 * On a page those paths become links (underlined: in running text a link must not rely on colour
 * alone, WCAG 1.4.1); everything else stays text, escaped.
 */
const PATH = /(^|[\s(])(\/(?:alert|kyt\/decision|kyt\/event|casi|cdd|anagrafe)\/[A-Za-z0-9][A-Za-z0-9_:.-]*[A-Za-z0-9])/g;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The text as HTML: escaped, its platform paths as links. */
export function linkInternalPaths(text: string): string {
  return escape(text).replace(PATH, (_m, before: string, path: string) => `${before}<a class="text-decoration-underline" href="${path}">${path}</a>`);
}
