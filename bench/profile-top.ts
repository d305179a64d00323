/**
 * `node --import tsx bench/profile-top.ts <file.cpuprofile> [N]`: where a CPU profile's time
 * went, as text: the top N functions by self time, and self time summed per package or
 * project folder (so "fastify", "graphql", "pg", "facades/…" read at a glance). For the
 * profiles `npm run bench -- --profile DIR` writes.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A frame's file relative to the project or to node_modules. */
function shortUrl(url: string): string {
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) return path.slice(nm + '/node_modules/'.length);
  return path.startsWith(ROOT) ? path.slice(ROOT.length) : path;
}

/** "fastify", "graphql", "node:internal", or the project folder ("resolvers/catalogue"). */
function groupOf(url: string): string {
  if (!url) return '(native / idle / gc)';
  if (url.startsWith('node:')) return 'node:' + (url.split('/')[1] ?? url.slice(5));
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 14).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const m = /\/(facades|resolvers|platform|workers|cli|bench)\/(.*)$/.exec(url);
  if (!m) return url;
  const parts = m[2]!.split('/');
  return parts.length > 1 ? `${m[1]}/${parts[0]}` : m[1]!;
}

function selfTimes(profile: Profile): { byFunction: Map<string, number>; byGroup: Map<string, number>; total: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const byFunction = new Map<string, number>();
  const byGroup = new Map<string, number>();
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const g = f.functionName === '(idle)' ? '(idle)' : f.functionName === '(garbage collector)' ? '(gc)' : groupOf(f.url);
    byGroup.set(g, (byGroup.get(g) ?? 0) + us);
  }
  return { byFunction, byGroup, total };
}

function top(map: Map<string, number>, n: number, total: number): string[] {
  return [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
}

/**
 * CPU µs per request by package or folder of a profile taken over `requests` requests: the
 * time the process was not idle, so the columns add up to the pipeline's cost on the CPU.
 */
export function perRequest(file: string, requests: number): Map<string, number> {
  const { byGroup } = selfTimes(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  byGroup.delete('(idle)');
  return new Map([...byGroup].map(([group, us]) => [group, us / Math.max(requests, 1)]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, n = '40'] = process.argv.slice(2);
  if (!file) throw new Error('usage: bench/profile-top.ts <file.cpuprofile> [N]');
  const { byFunction, byGroup, total } = selfTimes(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  process.stdout.write(`total ${(total / 1000).toFixed(0)} ms\n\nby package or folder:\n${top(byGroup, 30, total).join('\n')}\n\nby function (self):\n${top(byFunction, Number(n), total).join('\n')}\n`);
}
