// A page's address: its path with the ltik that opens it in the query (an LMS frame may block the tool's cookies,
// so the session rides in the address), and what else the page is asked. Every link, redirect and script address
// to a page of the tool is made here, in the routes and, as `it.page(path)`, in the views (views.ts).
export function pageAddress(path: string, ltik: string, query: Record<string, string> = {}): string {
  return `${path}?${new URLSearchParams({ ltik, ...query })}`;
}
