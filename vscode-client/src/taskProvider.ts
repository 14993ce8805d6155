// The `kernel-lsp` task type: "kernel-lsp: lint" for each workspace folder, and tasks.json
// entries of the type ({"type": "kernel-lsp", "paths": ["csrc"], "severity": "warning"}),
// run as a process with the `$kernel-lsp` problem matcher.
import * as vscode from 'vscode';
import { lintTaskArgs, type LintTaskDefinition } from './lintTask';

export const lintTaskType = 'kernel-lsp';

export class LintTaskProvider implements vscode.TaskProvider {
  constructor(private readonly binary: () => string | undefined) {}

  provideTasks(): vscode.Task[] {
    return (vscode.workspace.workspaceFolders ?? []).map((folder) =>
      this.task({ type: lintTaskType }, folder)).filter((t): t is vscode.Task => t !== undefined);
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const scope = task.scope !== undefined && typeof task.scope === 'object' ? task.scope : vscode.workspace.workspaceFolders?.[0];
    return scope ? this.task(task.definition as LintTaskDefinition, scope) : undefined;
  }

  private task(definition: LintTaskDefinition, folder: vscode.WorkspaceFolder): vscode.Task | undefined {
    // Without a binary the task still exists, so that running it says what is missing.
    const command = this.binary() ?? 'kernel-lsp';
    const execution = new vscode.ProcessExecution(command, lintTaskArgs(definition), { cwd: folder.uri.fsPath });
    const task = new vscode.Task(definition, folder, 'lint', 'kernel-lsp', execution, ['$kernel-lsp']);
    task.group = vscode.TaskGroup.Test;
    task.detail = `kernel-lsp ${lintTaskArgs(definition).join(' ')}`;
    return task;
  }
}
