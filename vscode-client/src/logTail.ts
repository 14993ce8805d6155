// The last lines the server wrote to stderr (its log), kept for the message that says why it
// stopped. Chunks arrive split anywhere; a partial last line is kept until its newline comes.
export class LogTail {
  private lines: string[] = [];
  private partial = '';

  constructor(private readonly capacity = 20) {}

  append(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    for (const line of parts) if (line.trim()) this.push(line);
  }

  last(count = this.capacity): string[] {
    const all = this.partial.trim() ? [...this.lines, this.partial] : this.lines;
    return all.slice(-count);
  }

  clear(): void {
    this.lines = [];
    this.partial = '';
  }

  private push(line: string): void {
    this.lines.push(line.length > 500 ? `${line.slice(0, 500)} …` : line);
    if (this.lines.length > this.capacity) this.lines.shift();
  }
}
