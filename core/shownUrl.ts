// A URL as error messages show it: without its query, fragment and user info, where a token or a
// password in a URL usually is (`?api_key=…`, `https://user:pass@host`). The path stays: it says
// which endpoint failed. One rule for every message that names a URL a tool called.

/** `https://api.example.com/v1/items?…` for `https://u:p@api.example.com/v1/items?key=s#x`. */
export function shownUrl(url: URL): string {
  const auth = url.username !== '' || url.password !== '' ? '***@' : '';
  const rest = url.search !== '' || url.hash !== '' ? '?…' : '';
  return `${url.protocol}//${auth}${url.host}${url.pathname}${rest}`;
}

/** The same for text that may not parse as a URL: everything from the first `?` or `#` is cut. */
export function shownUrlText(text: string): string {
  try {
    return shownUrl(new URL(text));
  } catch {
    const cut = text.search(/[?#]/);
    const head = cut === -1 ? text : `${text.slice(0, cut)}?…`;
    return head.replace(/\/\/[^/@]*@/, '//***@');
  }
}
