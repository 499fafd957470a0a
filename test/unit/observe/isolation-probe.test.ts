import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { capabilitiesHeld } from '../../../src/observe/isolation/bubblewrap.js';

const path0 = process.env.PATH;
afterEach(() => {
  process.env.PATH = path0;
});

const STATUS = (effective: string) =>
  `Name:\tnode\nCapInh:\t0000000000000000\nCapPrm:\t${effective}\nCapEff:\t${effective}\nCapBnd:\t000001ffffffffff\nCapAmb:\t0000000000000000\n`;

describe('the bubblewrap probe', () => {
  test('reads the capability sets a process holds; the bounding set alone is no capability', () => {
    expect(capabilitiesHeld(STATUS('0000000000000000'))).toEqual([]);
    expect(capabilitiesHeld(STATUS('000001fffeffffff'))).toEqual([
      'CapPrm 000001fffeffffff',
      'CapEff 000001fffeffffff',
    ]);
    expect(capabilitiesHeld('Name:\tnode\n')).toEqual([
      'CapInh unreadable',
      'CapPrm unreadable',
      'CapEff unreadable',
      'CapAmb unreadable',
    ]);
  });

  test.runIf(process.platform !== 'win32')(
    'refuses isolation when the sandboxed process keeps capabilities, rather than pretend',
    async () => {
      // A bwrap that runs, but whose sandbox keeps root's capabilities (as bwrap did, run as root, without --cap-drop).
      const bin = mkdtempSync(path.join(os.tmpdir(), 'riddle-capable-bwrap-'));
      writeFileSync(
        path.join(bin, 'bwrap'),
        `#!/bin/sh\nprintf '${STATUS('000001fffeffffff').replaceAll('\t', '\\t').replaceAll('\n', '\\n')}'\n`,
      );
      chmodSync(path.join(bin, 'bwrap'), 0o755);
      process.env.PATH = `${bin}${path.delimiter}${path0}`;
      // A fresh module: the probe runs once per module.
      vi.resetModules();
      const { bubblewrap } = await import('../../../src/observe/isolation/bubblewrap.js');
      expect(await bubblewrap.available()).toEqual({
        available: false,
        detail:
          'bwrap runs, but the sandboxed process keeps capabilities it could leave the sandbox with (CapPrm 000001fffeffffff, CapEff 000001fffeffffff)',
      });
    },
  );
});
