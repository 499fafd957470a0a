import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import type { Dependency } from '../../../src/model/index.js';
import { checkDependency } from '../../../src/observe/index.js';

const dep = (kind: Dependency['kind'], name: string): Dependency => ({
  kind,
  name,
  onUnavailable: 'blocked',
  description: null,
});
const root = new URL('../../../', import.meta.url).pathname;

describe('checkDependency', () => {
  test('env, file and binary', async () => {
    process.env.RIDDLE_DEP_TEST = 'yes';
    try {
      expect(await checkDependency(dep('env', 'RIDDLE_DEP_TEST'), root)).toEqual({
        available: true,
        detail: 'environment variable RIDDLE_DEP_TEST is set',
      });
      expect((await checkDependency(dep('env', 'RIDDLE_DEP_TEST_UNSET'), root)).available).toBe(false);
    } finally {
      delete process.env.RIDDLE_DEP_TEST;
    }
    expect((await checkDependency(dep('file', 'package.json'), root)).available).toBe(true);
    expect((await checkDependency(dep('file', 'no/such/file'), root)).available).toBe(false);
    expect((await checkDependency(dep('binary', 'node'), root)).available).toBe(true);
    expect(await checkDependency(dep('binary', 'riddle-no-such-binary'), root)).toEqual({
      available: false,
      detail: 'riddle-no-such-binary is not on PATH',
    });
  });

  test('a service by URL: any HTTP answer means available', async () => {
    const server = createServer((_req, res) => res.writeHead(503).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await checkDependency(dep('service', `http://127.0.0.1:${port}/health`), root)).toEqual({
        available: true,
        detail: `http://127.0.0.1:${port}/health answered HTTP 503`,
      });
    } finally {
      server.close();
    }
    const down = await checkDependency(dep('service', `http://127.0.0.1:${port}/health`), root);
    expect(down.available).toBe(false);
    expect(down.detail).toMatch(/did not answer: .*ECONNREFUSED/);
  });

  test('a service by host:port: a TCP connection means available', async () => {
    const server = createTcpServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect((await checkDependency(dep('service', `127.0.0.1:${port}`), root)).available).toBe(true);
    } finally {
      server.close();
    }
    expect((await checkDependency(dep('service', `127.0.0.1:${port}`), root)).available).toBe(false);
  });

  test('a service named neither way is a configuration mistake', async () => {
    await expect(checkDependency(dep('service', 'postgres'), root)).rejects.toThrow(/http\(s\):\/\/ URL or host:port/);
  });
});
