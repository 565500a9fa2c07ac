/**
 * What a browser downloads in JavaScript to open each console route, read from the build's Remix
 * manifest: the route manifest, the client entry and its chunks, and every matched route module
 * (root to leaf) with their chunks, counted once each. Sizes raw, gzip (level 9) and brotli
 * (quality 11, what the build's precompressed copies hold).
 *
 * With lazy route discovery (remix.config.js) the page carries only part of the manifest, in an
 * inline script: the routes matched by the page's path and by each of its parent paths, which is
 * what Remix's server puts there. That script is counted, compressed on its own, instead of the
 * manifest file the browser then never loads.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import remixConfig from "../remix.config.js";

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
}
interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
  url: string;
}

export interface RouteWeight {
  routeId: string;
  /** The route's URL pattern, parents included. */
  pattern: string;
  files: number;
  raw: number;
  gzip: number;
  brotli: number;
}

export function readManifest(publicDir: string): Manifest {
  const buildDir = path.join(publicDir, "build");
  const file = readdirSync(buildDir).find((name) => /^manifest-.*\.js$/.test(name));
  if (!file) throw new Error(`no Remix manifest in ${buildDir}: run npm run build first`);
  const source = readFileSync(path.join(buildDir, file), "utf8");
  const manifest = JSON.parse(source.replace(/^window\.__remixManifest=/, "").replace(/;\s*$/, "")) as Manifest;
  return { ...manifest, url: `/build/${file}` };
}

function patternOf(routes: Record<string, ManifestRoute>, route: ManifestRoute): string {
  const parent = route.parentId ? routes[route.parentId] : undefined;
  const own = route.path ?? "";
  const before = parent ? patternOf(routes, parent) : "";
  return `${before.replace(/\/$/, "")}/${own}`.replace(/\/+/g, "/");
}

const sizesOf = (bytes: Buffer) => ({
  raw: bytes.length,
  gzip: gzipSync(bytes, { level: 9 }).length,
  brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
});

/** The manifest's routes as a tree React Router can match. */
function routeTree(routes: Record<string, ManifestRoute>, parentId?: string): AgnosticRouteObject[] {
  return Object.values(routes)
    .filter((route) => route.parentId === parentId)
    .map((route) =>
      route.index
        ? { id: route.id, path: route.path, index: true }
        : { id: route.id, path: route.path, children: routeTree(routes, route.id) },
    );
}

/** An address of the pattern (each parameter given a sample value) and each of its parent paths. */
function pathsOf(pattern: string) {
  const segments = pattern
    .split("/")
    .filter(Boolean)
    .map((segment) => (segment.startsWith(":") ? "sample" : segment === "*" ? "any" : segment));
  return segments.map((_, index) => `/${segments.slice(0, index + 1).join("/")}`).concat("/");
}

/** The inline script that carries a page's part of the manifest, as Remix's server renders it. */
function partialManifestScript(manifest: Manifest, tree: AgnosticRouteObject[], pattern: string) {
  const ids = new Set<string>();
  for (const address of pathsOf(pattern))
    for (const match of matchRoutes(tree, address) ?? []) ids.add(String(match.route.id));
  const routes = Object.fromEntries([...ids].map((id) => [id, manifest.routes[id]]));
  // Remix writes it indented by two spaces.
  return Buffer.from(`window.__remixManifest = ${JSON.stringify({ ...manifest, routes }, null, 2)};`);
}

const lazyRouteDiscovery = Boolean((remixConfig.future as Record<string, boolean> | undefined)?.v3_lazyRouteDiscovery);

/**
 * Each page one opens (a leaf route; layouts are counted within their pages) with the scripts a
 * browser loads for it: the client entry and its chunks, and every matched route module, root to
 * leaf, with its chunks.
 */
export function pageScripts(manifest: Manifest) {
  const parents = new Set(Object.values(manifest.routes).map((route) => route.parentId));
  const leaves = Object.values(manifest.routes).filter((route) => !parents.has(route.id) || route.index);
  return leaves.map((leaf) => {
    const files = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
    if (!lazyRouteDiscovery) files.add(manifest.url);
    for (
      let route: ManifestRoute | undefined = leaf;
      route;
      route = route.parentId ? manifest.routes[route.parentId] : undefined
    ) {
      files.add(route.module);
      for (const chunk of route.imports ?? []) files.add(chunk);
    }
    return { routeId: leaf.id, pattern: patternOf(manifest.routes, leaf), files };
  });
}

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}
const metafiles = new Map<string, Metafile>();

/**
 * The source modules (app files and packages' files, as the build's metafile names them) in a set
 * of built scripts, read from the metafile `npm run build` writes beside the server build.
 */
export function sourceModulesOf(files: Iterable<string>, metafileFile = "build/metafile.js.json"): Set<string> {
  let metafile = metafiles.get(metafileFile);
  if (!metafile) {
    metafile = JSON.parse(readFileSync(metafileFile, "utf8")) as Metafile;
    metafiles.set(metafileFile, metafile);
  }
  const modules = new Set<string>();
  for (const file of files) {
    for (const input of Object.keys(metafile.outputs[`public${file}`]?.inputs ?? {})) modules.add(input);
  }
  return modules;
}

export function routeWeights(publicDir: string): RouteWeight[] {
  const manifest = readManifest(publicDir);
  const tree = routeTree(manifest.routes);
  const sizes = new Map<string, { raw: number; gzip: number; brotli: number }>();
  const sizeOf = (url: string) => {
    let size = sizes.get(url);
    if (!size) {
      size = sizesOf(readFileSync(path.join(publicDir, url)));
      sizes.set(url, size);
    }
    return size;
  };
  const weights = pageScripts(manifest).map(({ routeId, pattern, files }) => {
    const total = lazyRouteDiscovery
      ? sizesOf(partialManifestScript(manifest, tree, pattern))
      : { raw: 0, gzip: 0, brotli: 0 };
    for (const file of files) {
      const size = sizeOf(file);
      total.raw += size.raw;
      total.gzip += size.gzip;
      total.brotli += size.brotli;
    }
    return { routeId, pattern, files: files.size, ...total };
  });
  return weights.sort((a, b) => b.gzip - a.gzip);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function formatWeight(weight: RouteWeight) {
  return `${weight.pattern.padEnd(72)} ${String(weight.files).padStart(3)} files  ${kb(weight.raw).padStart(9)} raw  ${kb(weight.gzip).padStart(8)} gzip  ${kb(weight.brotli).padStart(8)} br`;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const weights = routeWeights(path.resolve("public"));
  console.log(`JavaScript per console route (${weights.length} routes; largest first)`);
  for (const weight of weights) console.log(formatWeight(weight));
}
