/**
 * JSON to embed in a `<script type="application/json">` element (the `json_script` view filter).
 * The HTML parser ends a script element at `</script` whatever the JSON says, and `<!--` changes
 * how it reads on; escaping `<`, `>` and `&` as `\u003c`... keeps the text the same JSON for
 * JSON.parse while no data can close the element or open a comment. U+2028/2029 are escaped too,
 * so the text stays valid if someone ever evaluates it as JavaScript.
 */
export const jsonForScript = (v: unknown): string => (JSON.stringify(v) ?? 'null')
  .replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
