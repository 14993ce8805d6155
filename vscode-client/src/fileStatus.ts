// The server's `kernel-lsp/fileStatus` answer (lsp/server/file_status_json.h): the compute
// capabilities a file is checked against and where they come from, its project, and the
// project's last build with the files changed since. Checked field by field: the status bar
// must not break on an older or newer server.

export const fileStatusMethod = 'kernel-lsp/fileStatus';

export interface LastBuild {
  finishedAt: string;  // "2026-12-02T08:10:00Z"
  ok: boolean;
  cancelled: boolean;
  failedCompiles: number;
  changedSince: string[];  // URIs
}

export interface FileStatus {
  uri: string;
  project?: string;  // folder URI
  buildToml?: string;
  capabilities?: string[];  // "8.0", "9.0a"; undefined: not a kernel source (or not known)
  capabilitiesFrom?: string;
  lastBuild?: LastBuild;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const stringOr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;

export function parseFileStatus(value: unknown): FileStatus | undefined {
  if (!isRecord(value) || typeof value.uri !== 'string') return undefined;
  const status: FileStatus = { uri: value.uri };
  status.project = stringOr(value.project);
  status.buildToml = stringOr(value.buildToml);
  status.capabilities = strings(value.capabilities);
  status.capabilitiesFrom = stringOr(value.capabilitiesFrom);
  const build = value.lastBuild;
  if (isRecord(build) && typeof build.finishedAt === 'string') {
    status.lastBuild = {
      finishedAt: build.finishedAt,
      ok: build.ok === true,
      cancelled: build.cancelled === true,
      failedCompiles: typeof build.failedCompiles === 'number' ? build.failedCompiles : 0,
      changedSince: strings(build.changedSince) ?? [],
    };
  }
  return status;
}

// "9.0a" → "sm_90a", "12.1+PTX" → "sm_121+PTX": how nvcc and the lenses name a target.
export function smName(capability: string): string {
  const match = /^(\d+)\.(\d+)([af]?)(\+PTX)?$/i.exec(capability.trim());
  if (!match) return capability;
  return `sm_${match[1]}${match[2]}${match[3].toLowerCase()}${match[4] ? '+PTX' : ''}`;
}
