// The mount prefix the node:http and fetch adapters serve the API under (Express gives its own `req.path`).

/** `/collector/` → `/collector`; empty or `/` → ``. */
export function normalizeBasePath(basePath: string | undefined): string {
  return (basePath ?? '').replace(/\/+$/, '');
}

/** The path relative to `basePath`, or undefined when it lies outside it. */
export function stripBasePath(path: string, basePath: string): string | undefined {
  if (!basePath) return path;
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : undefined;
}
