import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findProjectDir, startsServer } from '../src/project';

const files = new Set(['/p/build.toml', '/p/inner/build.toml']);
const exists = (p: string) => files.has(p);

test('the project is the folder of the nearest build.toml above', () => {
  assert.equal(findProjectDir('/p/csrc/k.cu', exists), '/p');
  assert.equal(findProjectDir('/p/inner/x/k.cu', exists), '/p/inner');
  assert.equal(findProjectDir('/elsewhere/k.cu', exists), undefined);
});

test('the server starts for CUDA, build.toml and SKILL.md anywhere, and C++/Python only in a kernel project', () => {
  const doc = (fileName: string, languageId: string, scheme = 'file') => startsServer({ fileName, languageId, scheme }, exists);
  assert.equal(doc('/any/k.cu', 'cuda-cpp'), true);
  assert.equal(doc('/any/k.cuh', 'cpp'), true, 'by extension when the language id is not CUDA');
  assert.equal(doc('/any/build.toml', 'toml'), true);
  assert.equal(doc('/any/.claude/skills/x/SKILL.md', 'markdown'), true);
  assert.equal(doc('/any/Cargo.toml', 'toml'), false);
  assert.equal(doc('/any/README.md', 'markdown'), false);
  assert.equal(doc('/p/torch-ext/torch_binding.cpp', 'cpp'), true);
  assert.equal(doc('/p/tests/test_op.py', 'python'), true);
  assert.equal(doc('/elsewhere/main.cpp', 'cpp'), false);
  assert.equal(doc('/elsewhere/app.py', 'python'), false);
  assert.equal(doc('/p/k.cu', 'cuda-cpp', 'untitled'), false);
});
