// A URL as error messages show it: without its query, fragment and user info, where a token or a
// password in a URL usually is (`?api_key=…`, `https://user:pass@host`). The path stays: it says
// which endpoint failed, with `mask` (the run's secrets, computed ones included) applied to the host
// and to the path as written and percent-decoded (a URL writes `:` or `@` as they are where
// encodeURIComponent would not, so only the decoded path meets the secret's own text). One rule for
// every message that names a URL a tool called.

/** One-way: secrets in text become their placeholders. */
export type TextMask = (text: string) => string;

/** `https://api.example.com/v1/items?…` for `https://u:p@api.example.com/v1/items?key=s#x`. */
export function shownUrl(url: URL, mask?: TextMask): string {
  const auth = url.username !== '' || url.password !== '' ? '***@' : '';
  const rest = url.search !== '' || url.hash !== '' ? '?…' : '';
  const host = mask === undefined ? url.host : mask(url.host);
  return `${url.protocol}//${auth}${host}${mask === undefined ? url.pathname : maskedPath(url.pathname, mask)}${rest}`;
}

/** The same for text that may not parse as a URL: everything from the first `?` or `#` is cut. */
export function shownUrlText(text: string, mask?: TextMask): string {
  try {
    return shownUrl(new URL(text), mask);
  } catch {
    const cut = text.search(/[?#]/);
    const head = (cut === -1 ? text : `${text.slice(0, cut)}?…`).replace(/\/\/[^/@]*@/, '//***@');
    return mask === undefined ? head : maskedPath(head, mask);
  }
}

/** The path masked as written; when a secret shows only once decoded, the decoded path masked. */
function maskedPath(path: string, mask: TextMask): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A stray `%` (not an escape): decode what can be, segment by segment.
    decoded = path
      .split('/')
      .map((segment) => {
        try {
          return decodeURIComponent(segment);
        } catch {
          return segment;
        }
      })
      .join('/');
  }
  if (decoded !== path) {
    const maskedDecoded = mask(decoded);
    if (maskedDecoded !== decoded) return maskedDecoded;
  }
  return mask(path);
}
