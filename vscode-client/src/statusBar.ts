// The status bar item: the server's state, the compute capabilities of the file in front of the
// user, a running build or benchmark, and "build stale" when a file the last build read has
// changed since. The view is computed by a pure function; the item is anything with the three
// fields (vscode.StatusBarItem has them), so the tests need no editor.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FileStatus, smName } from './fileStatus';

export type ServerState = 'starting' | 'ready' | 'stopped' | 'crashed' | 'notFound';
export type RunningJob = 'build' | 'bench' | 'test';

export interface StatusInputs {
  state: ServerState;
  detail?: string;  // why it stopped, crashed or was not found
  file?: FileStatus;
  job?: RunningJob;
}

export interface StatusView {
  text: string;
  tooltip: string;
  alert?: 'error' | 'warning';  // the item's background
}

const stateText: Record<ServerState, string> = {
  starting: '$(sync~spin) kernel-lsp',
  ready: '$(check) kernel-lsp',
  stopped: '$(circle-slash) kernel-lsp: stopped',
  crashed: '$(error) kernel-lsp: crashed',
  notFound: '$(error) kernel-lsp: not found',
};

const stateTooltip: Record<ServerState, string> = {
  starting: 'kernel-lsp is starting.',
  ready: 'kernel-lsp is running.',
  stopped: 'kernel-lsp is stopped.',
  crashed: 'kernel-lsp crashed.',
  notFound: 'The kernel-lsp binary was not found.',
};

function fileName(uri: string): string {
  try {
    return path.basename(fileURLToPath(uri));
  } catch {
    return uri;
  }
}

function clock(iso: string): string {
  const match = /T(\d\d:\d\d)/.exec(iso);
  return match ? `${match[1]} UTC` : iso;
}

export function isBuildStale(file: FileStatus | undefined): boolean {
  return (file?.lastBuild?.changedSince.length ?? 0) > 0;
}

export function statusView(inputs: StatusInputs): StatusView {
  const parts = [stateText[inputs.state]];
  const tooltip = [stateTooltip[inputs.state]];
  if (inputs.detail) tooltip.push(inputs.detail);
  const live = inputs.state === 'ready';
  const file = live ? inputs.file : undefined;
  if (file?.capabilities && file.capabilities.length > 0) {
    parts.push(file.capabilities.map(smName).join(' '));
    tooltip.push(`This file is checked for ${file.capabilities.join(', ')}` +
      (file.capabilitiesFrom ? ` (from ${file.capabilitiesFrom}).` : '.'));
  }
  if (live && inputs.job) parts.push(`$(loading~spin) ${{ build: 'building', bench: 'benchmarking', test: 'testing' }[inputs.job]}`);
  if (file?.lastBuild) {
    const build = file.lastBuild;
    const outcome = build.cancelled ? 'cancelled' : build.ok ? 'ok' : `${build.failedCompiles} failed compiles`;
    tooltip.push(`Last build: ${clock(build.finishedAt)}, ${outcome}.`);
    if (isBuildStale(file)) {
      parts.push('$(warning) build stale');
      const names = build.changedSince.map(fileName);
      tooltip.push(`Changed since: ${names.slice(0, 5).join(', ')}${names.length > 5 ? ` and ${names.length - 5} more` : ''}.`);
    }
  } else if (file?.project) {
    tooltip.push('Not built since the server started.');
  }
  tooltip.push('Click for kernel-lsp actions.');
  const alert = inputs.state === 'crashed' || inputs.state === 'notFound' ? 'error'
    : isBuildStale(file) ? 'warning' : undefined;
  return { text: parts.join(' · '), tooltip: tooltip.join('\n'), alert };
}
