/*
 * The platform frames a tool in a sandbox that gives it an opaque origin, "null". A module script
 * and a stylesheet with a `crossorigin` attribute are fetched in CORS mode, which the platform's
 * file server may not allow for that origin, so the bundle could load in `pipeline-tool dev` and
 * fail on the platform. The build therefore makes one classic script (format iife, no code
 * splitting), and the page Vite writes loads it and its stylesheet without CORS.
 *
 * Only tags Vite itself wrote are rewritten, and Vite writes them in one known form:
 * `<script type="module" crossorigin src="./assets/index-….js"></script>` and
 * `<link rel="stylesheet" crossorigin href="./assets/index-….css">`.
 */

const START_TAG = /<(script|link)\b([^>]*)>/gi;

/** The built page, loading its script as a classic, deferred script and its styles without CORS. */
export function toClassicScripts(html: string): string {
  return html.replace(START_TAG, (tag, name: string, attributes: string) => {
    if (!/\scrossorigin\b/i.test(attributes)) return tag;
    if (name.toLowerCase() === 'script') {
      if (!/\stype=["']?module/i.test(attributes) || !/\ssrc=/i.test(attributes)) return tag;
      const rest = attributes.replace(/\s+type=["']?module["']?/i, '').replace(/\s+crossorigin(?:=["'][^"']*["'])?/i, '');
      return `<script defer${rest}>`;
    }
    if (!/\srel=["']?stylesheet/i.test(attributes)) return tag;
    return `<link${attributes.replace(/\s+crossorigin(?:=["'][^"']*["'])?/i, '')}>`;
  });
}
