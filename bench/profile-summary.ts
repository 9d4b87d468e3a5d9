// Where a CPU profile of the tool (`BENCH_PROFILE_DIR=DIR npm run bench`, one file per measured phase) spent
// its time: self time by area (a package under node_modules, a part of src/, Node's own code, the garbage
// collector, idle) and the heaviest functions. The .cpuprofile itself opens as a flame graph in Chrome's DevTools
// (Performance, "Load profile") or at speedscope.app.
//   node --import tsx bench/profile-summary.ts FILE.cpuprofile [TOP]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The area a function belongs to, from its script's address. */
export function areaOf(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nodeModules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (nodeModules) return nodeModules[1]!;
  // The tool runs built (dist/ mirrors src/) or from its sources; the last such folder in the address is the
  // project's own (a checkout's folder may itself be named bench or src).
  const own = url.match(/.*\/(src|dist|bench|test)\/([^/]+)/);
  if (own) return own[1] === 'src' || own[1] === 'dist' ? `src/${own[2]!.replace(/\.[jt]s$/, '')}` : own[1]!;
  if (url.startsWith('node:')) return 'node';
  return url;
}

export function summarise(profile: CpuProfile, top = 25): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((sum, us) => sum + us, 0);
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    const area = areaOf(node);
    areas.set(area, (areas.get(area) ?? 0) + us);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${area}:${node.callFrame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const share = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
  const rows = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => `${share(us)}  ${name}`);
  return [
    `${(total / 1e6).toFixed(1)} s sampled`,
    '',
    'By area (self time):',
    ...rows(areas),
    '',
    'Heaviest functions (self time):',
    ...rows(functions),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top] = process.argv.slice(2);
  if (!file) throw new Error('Name a .cpuprofile file.');
  console.log(summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, Number(top ?? 25)));
}
