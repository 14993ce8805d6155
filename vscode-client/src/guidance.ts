// "Show Guidance": the cuda-kernels skill's section for what is under the cursor, through the
// server's `kernel-lsp/guidance` request (lsp/server/guidance_json.h). The order: the rule of a
// kernel-lsp diagnostic under the cursor (the user is looking at a finding), then the construct at
// the cursor (the server's scan), then a topic the user types.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

export const guidanceMethod = 'kernel-lsp/guidance';

export interface Position {
  line: number;
  character: number;
}

export interface DiagnosticAtCursor {
  source?: string;
  code?: string | number | { value: string | number };
}

export type GuidanceParams =
  | { ruleId: string }
  | { uri: string; position: Position }
  | { topic: string };

export interface GuidanceResult {
  title: string;
  markdown: string;
  file: string;  // absolute path of the page the section is in
  uri: string;
  line: number;  // 0-based
  skill: string;
}

// The requests to try, in order, for a cursor at `position` of `uri` with these diagnostics.
export function guidanceQueries(uri: string, position: Position, diagnostics: DiagnosticAtCursor[]): GuidanceParams[] {
  const queries: GuidanceParams[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== 'kernel-lsp') continue;
    const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
    if (code !== undefined && code !== '') queries.push({ ruleId: String(code) });
  }
  queries.push({ uri, position });
  return queries;
}

export function parseGuidance(value: unknown): GuidanceResult | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.markdown !== 'string' || typeof v.file !== 'string') return undefined;
  return {
    title: typeof v.title === 'string' ? v.title : path.basename(v.file),
    markdown: v.markdown,
    file: v.file,
    uri: typeof v.uri === 'string' ? v.uri : pathToFileURL(v.file).href,
    line: typeof v.line === 'number' ? v.line : 0,
    skill: typeof v.skill === 'string' ? v.skill : '',
  };
}

// The section as a page of its own: relative links and images point into the skill's folder
// (the section is shown outside its file), and a last line says where it comes from.
export function guidancePage(result: GuidanceResult): string {
  const base = path.dirname(result.file);
  const absolute = (target: string): string => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return target;
    const [file, anchor] = target.split('#', 2);
    const href = pathToFileURL(path.resolve(base, decodeURI(file))).href;
    return anchor !== undefined ? `${href}#${anchor}` : href;
  };
  const body = result.markdown.replace(/(!?\[[^\]]*\]\()([^)\s]+)((?:\s+"[^"]*")?\))/g,
    (_all, open: string, target: string, close: string) => `${open}${absolute(target)}${close}`);
  const where = `${result.uri}#L${result.line + 1}`;
  return `${body.trimEnd()}\n\n---\n*${result.skill || 'skill'}: [${path.basename(result.file)} line ${result.line + 1}](${where})*\n`;
}
