// A list of named steps run in order, each followed by a screenshot of the workbench (kept as a
// test artefact, passed or failed). A failed step is reported and the next one still runs, unless
// it was marked `required`: then the steps after it would only fail for its reason.
import fs from 'node:fs';
import path from 'node:path';

export class Steps {
  constructor(workbench, artefacts) {
    this.workbench = workbench;
    this.artefacts = artefacts;
    this.results = [];
    fs.mkdirSync(artefacts, { recursive: true });
  }

  async run(name, body, { required = false } = {}) {
    const index = String(this.results.length + 1).padStart(2, '0');
    const started = Date.now();
    let error;
    try {
      await body();
    } catch (e) {
      error = e;
    }
    const shot = path.join(this.artefacts, `${index}-${name}.png`);
    await this.workbench.screenshot(shot).catch(() => {});
    const ms = Date.now() - started;
    this.results.push({ name, ok: !error, ms, error: error?.message });
    console.log(`${error ? 'not ok' : 'ok'} ${index} ${name} (${ms} ms)${error ? `\n  # ${error.message.replace(/\n/g, '\n  # ')}` : ''}`);
    if (error && required) throw new Error(`required step ${name} failed: ${error.message}`);
  }

  // A screenshot in the middle of a step, named after it.
  async snapshot(label) {
    const index = String(this.results.length + 1).padStart(2, '0');
    await this.workbench.screenshot(path.join(this.artefacts, `${index}-${label}.png`)).catch(() => {});
  }

  summary() {
    const failed = this.results.filter((r) => !r.ok);
    fs.writeFileSync(path.join(this.artefacts, 'results.json'), JSON.stringify(this.results, null, 1));
    console.log(`${this.results.length - failed.length} of ${this.results.length} steps passed; screenshots in ${this.artefacts}`);
    return failed.length === 0;
  }
}

export function expect(condition, message) {
  if (!condition) throw new Error(message);
}
