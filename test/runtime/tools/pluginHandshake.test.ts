import { describe, expect, test } from 'vitest';
import { parseHandshake } from '../../../runtime/tools/plugins/pluginProcess.js';

describe('the go-plugin handshake line', () => {
  test('a unix socket and a tcp address become gRPC targets', () => {
    expect(parseHandshake('1|1|unix|/tmp/plugin123|grpc\n')).toEqual({ target: 'unix:///tmp/plugin123' });
    expect(parseHandshake('1|1|tcp|127.0.0.1:10001|grpc|')).toEqual({ target: '127.0.0.1:10001' });
  });

  test('net/rpc plugins, other protocol versions and stray output are refused with the reason', () => {
    expect(parseHandshake('1|1|unix|/tmp/p|netrpc')).toEqual({ error: 'it serves the "netrpc" protocol; only grpc plugins are supported' });
    expect(parseHandshake('1|1|unix|/tmp/p')).toEqual({ error: 'it serves the "netrpc" protocol; only grpc plugins are supported' });
    expect(parseHandshake('1|2|unix|/tmp/p|grpc')).toEqual({ error: 'it speaks plugin protocol version 2, expected 1' });
    expect(parseHandshake('2|1|unix|/tmp/p|grpc')).toEqual({ error: 'it speaks go-plugin core protocol 2, expected 1' });
    expect(parseHandshake('This binary is a plugin.')).toMatchObject({ error: expect.stringContaining('not a go-plugin handshake') });
  });
});
