import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guidancePage, guidanceQueries, parseGuidance } from '../src/guidance';

test('a kernel-lsp diagnostic under the cursor asks for its rule first, then the construct at the cursor', () => {
  const queries = guidanceQueries('file:///p/k.cu', { line: 3, character: 7 }, [
    { source: 'nvcc', code: 'nvcc' },
    { source: 'kernel-lsp', code: { value: 'arch-mismatch' } },
    { source: 'kernel-lsp', code: 'smem-limit' },
  ]);
  assert.deepEqual(queries, [
    { ruleId: 'arch-mismatch' }, { ruleId: 'smem-limit' }, { uri: 'file:///p/k.cu', position: { line: 3, character: 7 } },
  ]);
  assert.deepEqual(guidanceQueries('file:///k.cu', { line: 0, character: 0 }, []), [{ uri: 'file:///k.cu', position: { line: 0, character: 0 } }]);
});

test('the section is shown with its relative links pointing into the skill', () => {
  const result = parseGuidance({
    title: 'cp.async', skill: 'cuda-kernels', file: '/skills/cuda-kernels/references/constructs.md',
    uri: 'file:///skills/cuda-kernels/references/constructs.md', line: 41,
    markdown: '## cp.async\nSee [the rules](rules/arch-mismatch.md#fix), ![plot](../img/a.svg) and [docs](https://example.org/x) or [below](#later).\n',
  });
  assert.ok(result);
  const page = guidancePage(result);
  assert.match(page, /\[the rules\]\(file:\/\/\/skills\/cuda-kernels\/references\/rules\/arch-mismatch\.md#fix\)/);
  assert.match(page, /!\[plot\]\(file:\/\/\/skills\/cuda-kernels\/img\/a/);
  assert.match(page, /\[docs\]\(https:\/\/example\.org\/x\)/);
  assert.match(page, /\[below\]\(#later\)/);
  assert.match(page, /cuda-kernels: \[constructs\.md line 42\]\(file:\/\/\/skills\/cuda-kernels\/references\/constructs\.md#L42\)/);
});

test('a null or malformed answer is no guidance', () => {
  assert.equal(parseGuidance(null), undefined);
  assert.equal(parseGuidance({ title: 'x' }), undefined);
});
